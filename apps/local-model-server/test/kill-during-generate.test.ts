/**
 * kill -9 in the middle of local_generate writes. The real local-model-mcp bin (dist/) runs over
 * stdio with the SDK client and writes large files (~2.5 MB each, so a write takes real time) in a
 * loop — new files, and replacements of one shared file — and the test SIGKILLs the server at
 * chosen moments, seen with fs.watch on the output folder: at the first sign of a write (its
 * temporary file appears, or a target changes), a few milliseconds later (writing, fsync,
 * rename), or at a random time. Then a new server starts (the restart) and the next round
 * writes on. After every kill:
 *  - every target file is absent or complete: byte for byte one of the contents sent for it
 *    (a non-atomic write, cut in the middle, fails this), and its frontmatter parses;
 *  - every write the client saw acknowledged is there;
 *  - stats.json, which the server updates after each call, still parses as JSON.
 * Temporary files of killed writes are counted; once the restarted server has written into
 * the same folder, none of a dead process may remain (writeFileAtomic removes them).
 */
import { existsSync, watch } from "node:fs";
import { mkdir, readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFrontmatter } from "../src/domain/frontmatter/frontmatter.js";
import { APP_DIR, tempDir } from "./helpers.js";

const MCP = join(APP_DIR, "dist/mcp.js");
const OUT = "out";
const TEMPLATE = "---\nid: {{id}}\nlines: {{count}}\n---\n{{{body}}}\nEND {{id}}\n";
const LINES = 60_000;
const TEMP_FILE = /^\..+\.\d+\.[0-9a-f]+\.tmp$/;

type KillPlan = "first-write" | "after-first-write" | "random";
const PLANS: KillPlan[] = ["first-write", "after-first-write", "random", "after-first-write", "first-write", "after-first-write"];

let root: Awaited<ReturnType<typeof tempDir>>;
let state: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  root = await tempDir("local-model-kill-");
  state = await tempDir("local-model-kill-state-");
  await mkdir(join(root.path, OUT));
});
const servers: SpawnedStdioServer[] = [];
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  await root.remove();
  await state.remove();
});

/** What one call writes: a frontmatter, LINES lines that differ per call, an end marker. */
function variablesFor(id: string): { id: string; count: number; body: string } {
  const body = Array.from({ length: LINES }, (_, i) => `${id} line ${i} ${"x".repeat(i % 40)}`).join("\n");
  return { id, count: LINES, body };
}
const contentOf = (v: { id: string; count: number; body: string }) => `---\nid: ${v.id}\nlines: ${v.count}\n---\n${v.body}\nEND ${v.id}\n`;

/** Call i writes out/gen-<i>.md, except every third call, which replaces out/shared.md. */
const targetOf = (i: number) => (i % 3 === 2 ? `${OUT}/shared.md` : `${OUT}/gen-${i}.md`);

async function startServer(): Promise<SpawnedStdioServer> {
  const server = await spawnStdioServer({
    command: process.execPath,
    args: [MCP],
    cwd: root.path,
    env: { LOCAL_MODEL_ROOTS: root.path, LOCAL_MODEL_STATE_DIR: state.path, LOCAL_MCP_LOG_LEVEL: "warn", LOCAL_MODEL_TIMEOUT_MS: "60000" },
    readyTimeoutMs: 30_000,
  });
  server.child.stdin.on("error", () => undefined); // EPIPE: the client writing to a killed server
  servers.push(server);
  return server;
}

describe("kill -9 during local_generate", () => {
  it("leaves every target absent or complete, keeps acknowledged writes, and cleans temporary files after a restart", async () => {
    expect(existsSync(MCP), `${MCP} is missing: build the app first (pnpm --filter @local-mcp/local-model-server build)`).toBe(true);
    /** Every content sent for a target, in order, by target path. */
    const sent = new Map<string, string[]>();
    /** The position in `sent` of the last acknowledged write of each target. */
    const acknowledged = new Map<string, number>();
    const history: string[] = [];
    let call = 0;
    for (const [round, plan] of PLANS.entries()) {
      const server = await startServer();
      // The restarted server's first write into the folder: afterwards no temporary file of a dead process remains.
      if (round > 0) {
        const first = await server.client.callTool({
          name: "local_generate",
          arguments: { template: "{{x}}\n", variables: { x: round }, output_path: `${OUT}/restart-${round}.txt` },
        });
        expect(first.isError, JSON.stringify(first.structuredContent)).toBeFalsy();
        expect((await readdir(join(root.path, OUT))).filter((name) => TEMP_FILE.test(name))).toEqual([]);
      }
      // The first writes of a round complete; the kill is armed after a few acknowledgements.
      const armAfter = round === 0 ? 0 : 1 + Math.floor(Math.random() * 3);
      let acks = 0;
      let killed = false;
      const kill = () => {
        if (killed) return;
        killed = true;
        server.child.kill("SIGKILL");
      };
      const watcher = watch(join(root.path, OUT), (_event, name) => {
        if (name === null || name.startsWith("restart-") || acks < armAfter) return;
        const writing = TEMP_FILE.test(name) || name.endsWith(".md");
        if (plan === "first-write" && writing) kill();
        if (plan === "after-first-write" && writing) setTimeout(kill, Math.floor(Math.random() * 20));
      });
      if (plan === "random") setTimeout(kill, 300 + Math.floor(Math.random() * 2_000));
      const exited = new Promise<void>((resolve) => server.child.once("exit", () => resolve()));

      while (!killed) {
        const i = call++;
        const target = targetOf(i);
        const variables = variablesFor(`call-${i}`);
        const content = contentOf(variables);
        const contents = sent.get(target) ?? [];
        contents.push(content);
        sent.set(target, contents);
        const result = await server.client
          .callTool({ name: "local_generate", arguments: { template: TEMPLATE, variables, output_path: target } }, { timeout: 60_000 })
          .catch(() => undefined);
        if (result === undefined) break; // the connection went down with the server
        expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
        acknowledged.set(target, contents.length - 1);
        acks++;
      }
      watcher.close();
      await exited;

      const names = await readdir(join(root.path, OUT));
      const temps = names.filter((name) => TEMP_FILE.test(name));
      for (const name of names.filter((n) => n.endsWith(".md"))) {
        const text = await readFile(join(root.path, OUT, name), "utf8");
        const expected = sent.get(`${OUT}/${name}`) ?? [];
        expect(
          expected.includes(text),
          `round ${round} (${plan}): ${name} is not one of the contents sent for it (${text.length} chars)`,
        ).toBe(true);
        const frontmatter = parseFrontmatter(text);
        expect(frontmatter.error, name).toBeUndefined();
        expect(frontmatter.values).toMatchObject({ lines: LINES });
      }
      for (const [target, position] of acknowledged) {
        // The last acknowledged content of the target, or a later one that was sent after it.
        const text = await readFile(join(root.path, target), "utf8");
        expect((sent.get(target) ?? []).indexOf(text), `round ${round}: acknowledged ${target}`).toBeGreaterThanOrEqual(position);
      }
      const stats = await readFile(join(state.path, "stats.json"), "utf8").catch(() => "{}");
      expect(() => JSON.parse(stats) as unknown, "stats.json").not.toThrow();
      history.push(`round ${round} ${plan}: ${acks} acknowledged, ${temps.length} temporary file(s) left`);
    }
    const final = await startServer();
    const last = await final.client.callTool({
      name: "local_generate",
      arguments: { template: TEMPLATE, variables: variablesFor("final"), output_path: `${OUT}/final.md` },
    });
    expect(last.isError).toBeFalsy();
    expect((await readdir(join(root.path, OUT))).filter((name) => TEMP_FILE.test(name))).toEqual([]);
    final.assertCleanStdout();
    await final.close();
    console.log(`kill-during-generate:\n${history.join("\n")}`);
  }, 120_000);
});
