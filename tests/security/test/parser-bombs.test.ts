/**
 * Issue #13, item 10: parser bombs against local-model's exact engines, through the real
 * local-model-mcp bin over stdio.
 *
 * - A 40 KB frontmatter of 20,000 nested `[` (or `{`, or `- `) aborted the whole process
 *   (`FATAL ERROR: RegExpCompiler Allocation failed`): every later call died with it. Now it is
 *   refused before the parser sees it — a per-file error naming the nesting — and the server
 *   answers the next call.
 * - TS/JS nested 20,000 levels deep (brackets, or a `1+1+…` chain) overflowed the stack: the
 *   call answered INTERNAL ("a bug in the server"). Now INVALID_INPUT naming the nesting.
 * - A caller's JSON schema with `pattern: "^(a+)+$"` checked against 34 letters kept the main
 *   thread busy indefinitely (the 30 s deadline never fired). The check now runs in the parser
 *   thread, stopped at the deadline.
 * - A 100-byte template of five nested `{{#each @root.items}}` over 1,000 items (10^15 steps)
 *   blocked the server for good. Templates are filled in the parser thread, stopped at the deadline.
 * - 20 frontmatters of 0.9 MiB answered after 66.6 s against a 30 s deadline, the event loop
 *   blocked throughout. Now frontmatter larger than 256 KiB is refused at once, and a batch of
 *   legal but slow frontmatters is parsed in a worker thread: the call is answered at its
 *   deadline (TIMEOUT), and pings sent meanwhile are answered promptly.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVERS, SERVER_NODE } from "./support/servers.js";

const server = SERVERS.find((s) => s.name === "local-model-mcp");
if (!server) throw new Error("local-model-mcp is not in the server table");

/** The deadline of one tool call in this run: short, so the slow batch meets it within the test's time. */
const DEADLINE_MS = 5_000;
/** How late after the deadline an answer may come on a busy 2-core machine (the old code took minutes, or forever). */
const SLACK_MS = 5_000;

interface Answer {
  isError?: boolean;
  structuredContent?: {
    success?: boolean;
    error?: unknown;
    data?: { counts?: { files: number; failed?: number }; results?: Record<string, { found: boolean; error?: string; data?: unknown }> };
  };
}

const BOMBS: Record<string, string> = {
  "bomb-brackets.md": `---\nkey: ${"[".repeat(20_000)}\n---\n# Body\n`,
  "bomb-bare-brackets.md": `---\n${"[".repeat(20_000)}\n---\n# Body\n`,
  "bomb-braces.md": `---\nkey: ${"{".repeat(20_000)}\n---\n# Body\n`,
  "bomb-dashes.md": `---\n${"- ".repeat(20_000)}x\n---\n# Body\n`,
};

/** A 0.9 MiB frontmatter of 20,000 keys, as in the report. */
function hugeFrontmatter(seed: number): string {
  const lines = Array.from({ length: 20_000 }, (_, i) => `key_${i}: value ${seed} number ${i}`.padEnd(47, "."));
  return `---\n${lines.join("\n")}\n---\n# Body\n`;
}

/** ~240 KB of legal flow-heavy YAML: several seconds of parsing each. */
function slowFrontmatter(seed: number): string {
  const lines = Array.from({ length: 3_000 }, (_, i) => `k${seed}_${i}: [${"{a: [1, {b: 2}]}, ".repeat(4)}]`);
  return `---\n${lines.join("\n")}\n---\n# Body\n`;
}

describe("local-model-mcp over stdio: parser bombs", () => {
  let dir: string;
  let spawned: SpawnedStdioServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "security-parser-bombs-"));
    const env = { ...(await server.env(dir)), LOCAL_MODEL_TIMEOUT_MS: String(DEADLINE_MS) };
    for (const [name, text] of Object.entries(BOMBS)) await writeFile(join(dir, name), text);
    await writeFile(join(dir, "redos.md"), `---\ntitle: ${"a".repeat(34)}!\n---\n`);
    await writeFile(join(dir, "deep.ts"), `export const a = ${"[".repeat(20_000)};\n`);
    await writeFile(join(dir, "chain.ts"), `export const a = ${"1+".repeat(20_000)}1;\n`);
    for (let i = 0; i < 20; i++) await writeFile(join(dir, `huge-${i}.md`), hugeFrontmatter(i));
    for (let i = 0; i < 20; i++) await writeFile(join(dir, `slow-${i}.md`), slowFrontmatter(i));
    spawned = await spawnStdioServer({
      command: SERVER_NODE,
      args: [server.entry],
      env,
      cwd: dir,
      readyPattern: /ready/,
      readyTimeoutMs: 60_000,
    });
  });

  afterAll(async () => {
    await spawned?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const extract = (task: string, files: string[]) =>
    spawned.client.callTool(
      { name: "local_extract", arguments: { task_type: task, files, response_level: "standard" } },
      { timeout: 60_000 },
    ) as Promise<Answer>;

  it("survives nesting bombs (each parsed twice: the abort came once the parser was warm) and refuses them with a per-file error", async () => {
    const answers: [string, Answer][] = [];
    for (const round of [1, 2]) {
      for (const name of Object.keys(BOMBS)) {
        const died = (error: unknown) => {
          throw new Error(`round ${round}, ${name}: the server died (${String(error)}); stderr tail:\n${spawned.stderr().slice(-800)}`);
        };
        answers.push([name, await extract("frontmatter", [name]).catch(died)]);
        // The Markdown outline skips the frontmatter without parsing it.
        const outline = await extract("structure", [name]).catch(died);
        expect(outline.isError, JSON.stringify(outline).slice(0, 300)).toBeFalsy();
      }
    }
    // Still alive: the next calls are answered.
    await spawned.client.ping();
    const good = await extract("frontmatter", ["notes.md"]);
    expect(good.structuredContent?.data?.results?.["notes.md"]?.data).toEqual({ title: "Notes" });
    expect(spawned.child.exitCode).toBeNull();
    for (const [name, answer] of answers) {
      const item = answer.structuredContent?.data?.results?.[name];
      expect(item?.found, name).toBe(false);
      expect(String(item?.error), name).toMatch(/nests .* deep/);
      expect(answer.structuredContent?.success).toBe(false);
    }
  });

  it("answers TS/JS nesting bombs with INVALID_INPUT (they were INTERNAL: a stack overflow in the server)", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["local_extract", { task_type: "exports", files: ["deep.ts"] }],
      ["local_extract", { task_type: "structure", files: ["deep.ts"] }],
      ["local_analyze", { task_type: "functions", files: ["chain.ts"] }],
      ["local_analyze", { task_type: "dependencies", files: ["chain.ts"] }],
    ];
    for (const [name, args] of calls) {
      const answer = (await spawned.client.callTool({ name, arguments: args }, { timeout: 60_000 })) as Answer;
      expect(answer.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect((answer.structuredContent?.error as { code?: string } | undefined)?.code, JSON.stringify(answer).slice(0, 300)).toBe(
        "INVALID_INPUT",
      );
    }
    await spawned.client.ping();
  });

  it("bounds a catastrophic `pattern` in the caller's schema by the deadline", async () => {
    const schema = { type: "object", properties: { title: { type: "string", pattern: "^(a+)+$" } } };
    const started = performance.now();
    let done = false;
    const call = (
      spawned.client.callTool(
        { name: "local_extract", arguments: { task_type: "frontmatter", files: ["redos.md"], schema } },
        { timeout: 60_000 },
      ) as Promise<Answer>
    ).finally(() => (done = true));
    const pings: number[] = [];
    while (!done) {
      const sent = performance.now();
      await spawned.client.ping();
      pings.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answer = await call;
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS + SLACK_MS);
    expect((answer.structuredContent?.error as { code?: string } | undefined)?.code, JSON.stringify(answer).slice(0, 300)).toBe("TIMEOUT");
    expect(Math.max(...pings), `ping round trips (ms): ${pings.map(Math.round).join(", ")}`).toBeLessThan(1_000);
  });

  it("stops a template whose nested {{#each}} multiplies without bound at the deadline", async () => {
    const template = `${"{{#each @root.items}}".repeat(5)}x${"{{/each}}".repeat(5)}`;
    const items = Array.from({ length: 1_000 }, (_, i) => i);
    const started = performance.now();
    let done = false;
    const call = (
      spawned.client.callTool(
        { name: "local_generate", arguments: { template, variables: { items } } },
        { timeout: 60_000 },
      ) as Promise<Answer>
    ).finally(() => (done = true));
    const pings: number[] = [];
    while (!done) {
      const sent = performance.now();
      await spawned.client.ping();
      pings.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answer = await call;
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS + SLACK_MS);
    // TIMEOUT at the deadline, or RESOURCE_EXHAUSTED if the output outgrew the thread's heap first.
    expect((answer.structuredContent?.error as { code?: string } | undefined)?.code, JSON.stringify(answer).slice(0, 300)).toMatch(
      /^(TIMEOUT|RESOURCE_EXHAUSTED)$/,
    );
    expect(Math.max(...pings), `ping round trips (ms): ${pings.map(Math.round).join(", ")}`).toBeLessThan(1_000);
    // Templates still work afterwards.
    const ok = (await spawned.client.callTool({
      name: "local_generate",
      arguments: { template: "{{#each items}}{{this}}{{/each}}", variables: { items: [1, 2] }, response_level: "standard" },
    })) as {
      structuredContent?: { data?: { content?: string } };
    };
    expect(ok.structuredContent?.data?.content).toBe("12");
  });

  it("answers 20 frontmatters of 0.9 MiB within the deadline", async () => {
    const files = Array.from({ length: 20 }, (_, i) => `huge-${i}.md`);
    const started = performance.now();
    const answer = await extract("frontmatter", files);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(DEADLINE_MS + SLACK_MS);
    const results = answer.structuredContent?.data?.results ?? {};
    for (const file of files)
      expect(String(results[file]?.error), `${file}: ${JSON.stringify(answer).slice(0, 400)}`).toMatch(/at most \d+ are parsed/);
  });

  it("stops a slow batch at its deadline while pings are answered promptly", async () => {
    const files = Array.from({ length: 20 }, (_, i) => `slow-${i}.md`);
    const started = performance.now();
    let done = false;
    const call = extract("frontmatter", files).finally(() => (done = true));
    const pings: number[] = [];
    while (!done) {
      const sent = performance.now();
      await spawned.client.ping();
      pings.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answer = await call;
    const elapsed = performance.now() - started;
    // The deadline holds: answered at it, not after parsing everything (tens of seconds).
    expect(elapsed).toBeLessThan(DEADLINE_MS + SLACK_MS);
    expect(answer.isError, JSON.stringify(answer).slice(0, 300)).toBe(true);
    expect((answer.structuredContent?.error as { code?: string } | undefined)?.code).toBe("TIMEOUT");
    // The event loop stayed free: many pings during the call, none slow.
    expect(pings.length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...pings), `ping round trips (ms): ${pings.map(Math.round).join(", ")}`).toBeLessThan(1_000);
    // And the server answers normally afterwards (a fresh parser thread).
    const good = await extract("frontmatter", ["notes.md"]);
    expect(good.structuredContent?.data?.results?.["notes.md"]?.data).toEqual({ title: "Notes" });
  });
});
