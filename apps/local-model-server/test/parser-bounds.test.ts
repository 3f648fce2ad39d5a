/**
 * Bounded parsing (issue #13, item 10): hostile frontmatter, Markdown and TS/JS are refused or
 * stopped with coded errors instead of overflowing the stack, aborting the process or blocking
 * the event loop. The ParserPool tests run the built worker (dist/), as the server does.
 */
import { isToolError } from "@local-mcp/core";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { frontmatterRefusal, MAX_FLOW_NESTING, MAX_FRONTMATTER_BYTES, yamlNesting } from "../src/domain/frontmatter/frontmatter.js";
import { markdownOutline } from "../src/domain/markdown/outline.js";
import { frontmatterItem } from "../src/domain/parsing/frontmatter-item.js";
import { ParserPool } from "../src/domain/parsing/parser-pool.js";
import { MAX_SOURCE_NESTING, parseSource, sourceNesting } from "../src/domain/ts/source-file.js";
import { configFor, connect, errorOf, tempDir } from "./helpers.js";

const BOMB = `---\nkey: ${"[".repeat(20_000)}\n---\n# Body\n`;

/** ~240 KB of legal flow-heavy YAML that takes seconds to parse. */
function slowFrontmatter(): string {
  const lines = Array.from({ length: 3_000 }, (_, i) => `k${i}: [${"{a: [1, {b: 2}]}, ".repeat(4)}]`);
  return `---\n${lines.join("\n")}\n---\n`;
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isToolError(error) ? error.code : String(error);
  }
}

describe("frontmatter bounds", () => {
  it("measures nesting as the parser sees it: quotes and comments do not count", () => {
    expect(yamlNesting("a: [[1], {b: [2]}]\n").flow).toBe(3);
    expect(yamlNesting(`a: "${"[".repeat(500)}"\nb: '${"{".repeat(500)}' # ${"[".repeat(500)}\n`).flow).toBe(0);
    expect(yamlNesting(`${"- ".repeat(300)}x\n`).block).toBe(300);
    expect(yamlNesting("a:\n  b:\n    - c\n").block).toBe(5);
  });

  it.each([
    ["20,000 [ after a key", BOMB],
    ["20,000 bare [", `---\n${"[".repeat(20_000)}\n---\n`],
    ["20,000 {", `---\nk: ${"{a: ".repeat(20_000)}\n---\n`],
    ["20,000 compact - ", `---\n${"- ".repeat(20_000)}x\n---\n`],
  ])("refuses %s before parsing, quickly", (_name, text) => {
    const started = performance.now();
    const item = frontmatterItem(text, undefined, "json");
    expect(item.found).toBe(false);
    expect(item.error).toMatch(/nests .* deep .* at most \d+ are parsed/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("parses nesting up to the limit and refuses one level more", () => {
    const at = (depth: number) => `a: ${"[".repeat(depth)}${"]".repeat(depth)}`;
    expect(frontmatterRefusal(at(MAX_FLOW_NESTING))).toBeUndefined();
    expect(frontmatterRefusal(at(MAX_FLOW_NESTING + 1))).toMatch(/65 levels deep at line 2/);
  });

  it("refuses a frontmatter over the size cap without parsing it", () => {
    const text = `---\n${Array.from({ length: 20_000 }, (_, i) => `key_${i}: value number ${i} with some text`).join("\n")}\n---\n`;
    expect(text.length).toBeGreaterThan(MAX_FRONTMATTER_BYTES);
    const started = performance.now();
    expect(frontmatterItem(text, undefined, "json").error).toMatch(/bytes; at most 262144 are parsed/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("looks up many top-level keys in linear time", () => {
    const text = `---\n${Array.from({ length: 4_000 }, (_, i) => `key_${i}: ${i}`).join("\n")}\n---\n`;
    const item = frontmatterItem(text, undefined, "json");
    expect(Object.keys(item.data as object)).toHaveLength(4_000);
    expect(item.lineNumbers?.[3_999]).toBe(4_001);
  });
});

describe("Markdown outline bounds", () => {
  it("handles a 1 MiB heading line of spaces in linear time (the old ATX regex was quadratic)", () => {
    const started = performance.now();
    const outline = markdownOutline(`# a${" ".repeat(1024 * 1024)}x\n## Closed ##\n### ###\n#### Not # closed#\n`);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(outline.map((o) => o.name)).toEqual([`a${" ".repeat(1024 * 1024)}x`, "Closed", "", "Not # closed#"]);
  });

  it("skips a nesting-bomb frontmatter without parsing it", () => {
    expect(markdownOutline(BOMB).map((o) => [o.name, o.line])).toEqual([["Body", 4]]);
  });
});

describe("TS/JS nesting bounds", () => {
  it("counts brackets outside strings and comments", () => {
    expect(sourceNesting("f(a[1], {b: [2]});").depth).toBe(3);
    expect(sourceNesting(`const s = "((((["; // [[[[\n/* {{{{ */ const t = '\\'(';`).depth).toBe(0);
  });

  it.each([
    ["20,000 [", `export const a = ${"[".repeat(20_000)}`],
    ["20,000 (", `export const a = ${"(".repeat(20_000)}`],
    ["20,000 ! (no brackets: the parser's RangeError)", `export const a = ${"!".repeat(20_000)}b;`],
  ])("refuses %s with INVALID_INPUT, not INTERNAL", async (_name, text) => {
    expect(await codeOf(parseSource("/x/deep.ts", text))).toBe("INVALID_INPUT");
  });

  it("parses code nested up to the limit", async () => {
    const text = `export const a = ${"[".repeat(MAX_SOURCE_NESTING - 1)}${"]".repeat(MAX_SOURCE_NESTING - 1)};`;
    expect(await codeOf(parseSource("/x/ok.ts", text))).toBeUndefined();
  });
});

describe("ParserPool", () => {
  const pools: ParserPool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.dispose()));
  });
  const pool = (options?: ConstructorParameters<typeof ParserPool>[0]) => {
    const created = new ParserPool(options);
    pools.push(created);
    return created;
  };

  it("parses in a worker thread and returns plain data", async () => {
    const parsers = pool();
    const item = await parsers.run(
      { kind: "frontmatter", text: "---\ntitle: T\nlist: [1, 2]\n---\n", fields: undefined, format: "json" },
      { signal: new AbortController().signal, what: "t.md" },
    );
    expect(item).toMatchObject({ found: true, data: { title: "T", list: [1, 2] }, lineNumbers: [2, 3] });
    const outline = await parsers.run({ kind: "outline", text: "# A\n## B\n" }, { signal: new AbortController().signal, what: "t.md" });
    expect(outline.map((o) => o.name)).toEqual(["A", "B"]);
  });

  it("stops a slow parse when the signal aborts, and keeps the event loop free meanwhile", async () => {
    const parsers = pool();
    const text = slowFrontmatter();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = performance.now();
    const code = await codeOf(
      parsers.run({ kind: "frontmatter", text, fields: undefined, format: "json" }, { signal: AbortSignal.timeout(500), what: "slow.md" }),
    );
    clearInterval(ticker);
    const elapsed = performance.now() - started;
    expect(code).toMatch(/TimeoutError|abort/i);
    expect(elapsed).toBeLessThan(2_000);
    expect(ticks).toBeGreaterThanOrEqual(5);
    // A fresh thread answers the next parse.
    const item = await parsers.run(
      { kind: "frontmatter", text: "---\na: 1\n---\n", fields: undefined, format: "json" },
      { signal: new AbortController().signal, what: "t.md" },
    );
    expect(item.data).toEqual({ a: 1 });
  });

  it("answers RESOURCE_EXHAUSTED when a parse outgrows the thread's heap, and recovers", async () => {
    const parsers = pool({ memoryMb: 8 });
    const code = await codeOf(
      parsers.run(
        { kind: "frontmatter", text: slowFrontmatter(), fields: undefined, format: "json" },
        { signal: AbortSignal.timeout(30_000), what: "big.md" },
      ),
    );
    expect(code).toBe("RESOURCE_EXHAUSTED");
    const item = await parsers.run(
      { kind: "frontmatter", text: "---\na: 1\n---\n", fields: undefined, format: "json" },
      { signal: new AbortController().signal, what: "t.md" },
    );
    expect(item.data).toEqual({ a: 1 });
  });

  it("refuses work after dispose", async () => {
    const parsers = pool();
    await parsers.dispose();
    expect(await codeOf(parsers.run({ kind: "outline", text: "# A" }, { signal: new AbortController().signal, what: "t.md" }))).toBe(
      "NOT_READY",
    );
  });
});

describe("deep syntax trees through the tools", () => {
  it("answers INVALID_INPUT, not INTERNAL, when a walk over a deep tree runs out of stack", async () => {
    const dir = await tempDir();
    try {
      // Parses fine (binary chains are parsed in a loop) but makes a 20,000-deep tree.
      await writeFile(join(dir.path, "chain.ts"), `export const a = ${"1+".repeat(20_000)}1;\n`);
      await writeFile(join(dir.path, "deep.ts"), `export const a = ${"[".repeat(20_000)};\n`);
      const server = await connect(configFor({ LOCAL_MODEL_ROOTS: dir.path, LOCAL_MODEL_TOKEN_TRACKING: "false" }, dir.path));
      try {
        for (const [tool, args] of [
          ["local_analyze", { task_type: "functions", files: ["chain.ts"] }],
          ["local_analyze", { task_type: "dependencies", files: ["chain.ts"] }],
          ["local_extract", { task_type: "exports", files: ["deep.ts"] }],
        ] as const) {
          const { isError, body } = await server.call(tool, args);
          expect(isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
          expect(errorOf(body).code, JSON.stringify(body).slice(0, 300)).toBe("INVALID_INPUT");
        }
      } finally {
        await server.close();
      }
    } finally {
      await dir.remove();
    }
  });
});
