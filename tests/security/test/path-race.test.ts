/**
 * Issue #13, item 4: the check-then-open race. A tool that checks a path (realpath inside the
 * root) and then opens it by name reads whatever the name points to at the moment of the open:
 * another local process that swaps a file inside the root for a symbolic link to a secret outside
 * it, in a tight loop, wins now and then — 397 of 24,962 local-model answers and 30 of 8,134
 * catdoc answers carried the secret. Here a separate process (not this test's event loop) swaps
 * `race.md` inside the root between a normal file and a link to a secret outside the root, while
 * the real local-model-mcp (local_extract, every line of the file) and catdoc-mcp
 * (catdoc_show_object at full level, the document's content) bins answer 20,000 reads in all,
 * pipelined through one client each. No answer may carry the secret; enough answers must have
 * read the file for the race to have been run at all. Writes race the same way: local_generate
 * writes into a folder another process swaps for a link to a folder outside the root, and no
 * file may land outside.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_ENV, SERVERS, SERVER_NODE } from "./support/servers.js";

const READS = { "local-model-mcp": 12_000, "catdoc-mcp": 8_000 } as const;
/** Requests in flight at once per server: enough to keep both cores busy, few enough to stay fair. */
const IN_FLIGHT = 32;
const PUBLIC_TEXT = "---\ntitle: Race\n---\n# Race\npublic line\n";

/** Swaps `target` between a copy of `publicFile` (a hard link) and a symlink to `secret`, both by rename, forever. */
const SWAPPER = `
const fs = require("node:fs");
const [target, publicFile, secret] = process.argv.slice(1);
const link = target + ".link.tmp", copy = target + ".file.tmp";
process.stdout.write("swapping\\n");
for (;;) {
  try { fs.rmSync(link, { force: true }); fs.symlinkSync(secret, link); fs.renameSync(link, target); } catch {}
  try { fs.rmSync(copy, { force: true }); fs.linkSync(publicFile, copy); fs.renameSync(copy, target); } catch {}
}
`;

const WRITES = 2_000;

/**
 * Swaps folder `target` between a real folder and a symlink to `outside`, forever (a folder the
 * server made meanwhile, while `target` was briefly absent, is removed: it is inside the root).
 */
const FOLDER_SWAPPER = `
const fs = require("node:fs");
const [target, outside] = process.argv.slice(1);
const link = target + ".link.tmp", real = target + ".real.tmp";
process.stdout.write("swapping\\n");
for (;;) {
  try { fs.rmSync(link, { force: true }); fs.symlinkSync(outside, link); fs.renameSync(target, real); fs.renameSync(link, target); } catch {}
  try { fs.rmSync(target, { recursive: true, force: true }); fs.renameSync(real, target); } catch {}
}
`;

function entryOf(name: string): string {
  const server = SERVERS.find((s) => s.name === name);
  if (!server) throw new Error(`${name} is not in the server table`);
  return server.entry;
}

interface RaceCount {
  answers: number;
  leaked: number;
  /** Answers that carried the file's public text: the read really happened. */
  readPublic: number;
  firstLeak?: string;
}

/** Runs `total` calls with at most IN_FLIGHT pending, counting answers that carry the secret. */
async function hammer(
  client: SpawnedStdioServer["client"],
  total: number,
  call: () => { name: string; arguments: Record<string, unknown> },
  secret: string,
): Promise<RaceCount> {
  const count: RaceCount = { answers: 0, leaked: 0, readPublic: 0 };
  let issued = 0;
  const worker = async () => {
    while (issued < total) {
      issued += 1;
      const text = JSON.stringify(await client.callTool(call(), { timeout: 120_000 }));
      count.answers += 1;
      if (text.includes(secret)) {
        count.leaked += 1;
        count.firstLeak ??= text.slice(0, 400);
      } else if (text.includes("public line")) {
        count.readPublic += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return count;
}

describe("reads race a symlink swap: what was opened is confined, not what was checked", () => {
  let dir: string;
  let secret: string;
  let swapper: ChildProcess | undefined;
  const servers: SpawnedStdioServer[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "security-race-"));
    secret = `TOP-SECRET-${randomBytes(8).toString("hex")}`;
    await writeFile(join(dir, "secret.txt"), `${secret}\n`);
    // local-model's root and catdoc's project: the same folder, beside (not above) the secret.
    const root = join(dir, "root");
    await mkdir(join(root, ".catdoc"), { recursive: true });
    await mkdir(join(root, ".state"));
    await writeFile(join(root, "public.md"), PUBLIC_TEXT);
    await writeFile(join(root, "race.md"), PUBLIC_TEXT);
    await writeFile(
      join(root, ".catdoc", "category.yaml"),
      [
        "categories:",
        "  - id: docs",
        "    name: Docs",
        "    objects:",
        "      - id: race",
        "        title: Race",
        "        domain: docs",
        "        metadata:",
        "          path: race.md",
        "",
      ].join("\n"),
    );
    const common = { cwd: root, readyPattern: /ready/, readyTimeoutMs: 60_000 };
    servers.push(
      await spawnStdioServer({
        command: SERVER_NODE,
        args: [entryOf("local-model-mcp")],
        env: { ...BASE_ENV, LOCAL_MODEL_ROOTS: root, LOCAL_MODEL_STATE_DIR: join(root, ".state"), LOCAL_MODEL_TOKEN_TRACKING: "false" },
        ...common,
      }),
      await spawnStdioServer({
        command: SERVER_NODE,
        args: [entryOf("catdoc-mcp")],
        env: { ...BASE_ENV, CATDOC_PROJECT_PATH: root },
        ...common,
      }),
    );
  });

  afterAll(async () => {
    if (swapper?.pid !== undefined && swapper.exitCode === null) swapper.kill("SIGKILL");
    await Promise.all(servers.map((s) => s.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`answers ${READS["local-model-mcp"] + READS["catdoc-mcp"]} reads of a file swapped for a link to a secret without ever returning the secret`, async () => {
    const [localModel, catdoc] = servers as [SpawnedStdioServer, SpawnedStdioServer];
    const root = join(dir, "root");
    const extract = () => ({
      name: "local_extract",
      arguments: { task_type: "pattern_match", files: ["race.md"], extract: { patterns: [".+"] }, response_level: "standard" },
    });
    const show = () => ({ name: "catdoc_show_object", arguments: { objectId: "race", response_level: "full" } });
    // Before the swapping starts, both tools read the file (catdoc indexes where the document lives).
    expect(JSON.stringify(await localModel.client.callTool(extract()))).toContain("public line");
    expect(JSON.stringify(await catdoc.client.callTool(show()))).toContain("public line");

    swapper = spawn(SERVER_NODE, ["-e", SWAPPER, join(root, "race.md"), join(root, "public.md"), join(dir, "secret.txt")], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      swapper?.once("error", reject);
      swapper?.stdout?.once("data", () => resolve());
    });

    const [lm, cd] = await Promise.all([
      hammer(localModel.client, READS["local-model-mcp"], extract, secret),
      hammer(catdoc.client, READS["catdoc-mcp"], show, secret),
    ]);
    swapper.kill("SIGKILL");

    const report = `local-model: ${lm.leaked} of ${lm.answers} leaked (${lm.readPublic} read the file); catdoc: ${cd.leaked} of ${cd.answers} leaked (${cd.readPublic} read the file)`;
    expect(lm.answers + cd.answers).toBe(READS["local-model-mcp"] + READS["catdoc-mcp"]);
    expect({ leaked: lm.leaked + cd.leaked, firstLeak: lm.firstLeak ?? cd.firstLeak }, report).toEqual({ leaked: 0, firstLeak: undefined });
    // The race was really run: many reads met the regular file (others met the link and were refused).
    expect(lm.readPublic, report).toBeGreaterThan(READS["local-model-mcp"] / 20);
    expect(cd.readPublic, report).toBeGreaterThan(READS["catdoc-mcp"] / 20);
    localModel.assertCleanStdout();
    catdoc.assertCleanStdout();
  });

  it(`writes ${WRITES} files while their folder is swapped for a link to a folder outside: nothing lands outside`, async () => {
    const localModel = servers[0] as SpawnedStdioServer;
    const root = join(dir, "root");
    const outside = join(dir, "outside");
    await mkdir(outside);
    await mkdir(join(root, "out"));
    swapper = spawn(SERVER_NODE, ["-e", FOLDER_SWAPPER, join(root, "out"), outside], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      swapper?.once("error", reject);
      swapper?.stdout?.once("data", () => resolve());
    });
    let written = 0;
    let issued = 0;
    const worker = async () => {
      while (issued < WRITES) {
        issued += 1;
        const result = (await localModel.client.callTool({
          name: "local_generate",
          arguments: { template: "written {{n}}\n", variables: { n: issued }, output_path: `out/file-${issued % 50}.md` },
        })) as { isError?: boolean };
        if (!result.isError) written += 1;
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    swapper.kill("SIGKILL");
    const landed = (await readdir(outside)).filter((name) => name !== "keep");
    expect(landed, `${landed.length} files written outside the root (${written} writes succeeded)`).toEqual([]);
    // The race was really run: many writes went through (others met the link and were refused).
    expect(written).toBeGreaterThan(WRITES / 20);
  });
});
