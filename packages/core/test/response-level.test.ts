import type { CallToolResult } from "@modelcontextprotocol/client";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  LeveledResponse,
  ToolResponse,
  atLevel,
  defineTool,
  eachAtLevel,
  isNestedSubset,
  resolveResponseLevel,
  silentLogger,
  type ResponseLevel,
} from "../src/index.js";
import { assertLevelsNested, assertMinimalShare, connectInProcess, jsonTokens } from "../src/testing/index.js";

describe("atLevel: the one level builder", () => {
  const parts = {
    minimal: { status: "ok", counts: { files: 2 }, files: [{ path: "a" }, { path: "b" }] },
    standard: { counts: { lines: 40 }, files: [{ lines: 10 }, { lines: 30 }], repo: "r" },
    full: { counts: { bytes: 900, files: 99 }, files: [{ bytes: 100 }, { bytes: 800 }], status: "changed" },
  };

  it("adds later parts at any depth, objects by key and arrays element by element", () => {
    expect(atLevel("minimal", parts)).toEqual(parts.minimal);
    expect(atLevel("standard", parts)).toEqual({
      status: "ok",
      counts: { files: 2, lines: 40 },
      files: [
        { path: "a", lines: 10 },
        { path: "b", lines: 30 },
      ],
      repo: "r",
    });
    expect(atLevel("full", parts)).toEqual({
      status: "ok",
      counts: { files: 2, lines: 40, bytes: 900 },
      files: [
        { path: "a", lines: 10, bytes: 100 },
        { path: "b", lines: 30, bytes: 800 },
      ],
      repo: "r",
    });
  });

  it("never changes what an earlier part holds, so minimal ⊆ standard ⊆ full by construction", () => {
    // A later part that tries to replace a value, change a type or change a list's length adds nothing there.
    const hostile = {
      minimal: { n: 1, list: [1, 2], nested: { a: [{ x: 1 }] }, text: "t" },
      standard: { n: 2, list: [1, 2, 3], nested: { a: { x: 2 } }, text: { b: 1 } },
      full: { list: ["a", "b"], nested: { a: [{ x: 3, y: 4 }], b: 5 } },
    };
    const levels = { minimal: atLevel("minimal", hostile), standard: atLevel("standard", hostile), full: atLevel("full", hostile) };
    assertLevelsNested(levels);
    expect(levels.full).toEqual({ n: 1, list: [1, 2], nested: { a: [{ x: 1, y: 4 }], b: 5 }, text: "t" });
  });

  it("eachAtLevel renders every item, as many at every level", () => {
    const items = ["x", "yy", "zzz"];
    const render = (level: ResponseLevel) => eachAtLevel(level, items, (item, i) => ({ minimal: { id: i }, full: { text: item } }));
    expect(render("minimal")).toEqual([{ id: 0 }, { id: 1 }, { id: 2 }]);
    expect(render("full")).toEqual([
      { id: 0, text: "x" },
      { id: 1, text: "yy" },
      { id: 2, text: "zzz" },
    ]);
    expect(isNestedSubset(render("minimal"), render("standard"))).toBe(true);
  });

  it("resolves the level: the argument, else what other arguments imply, else the tool's, else the server's, else minimal", () => {
    expect(resolveResponseLevel({})).toBe("minimal");
    expect(resolveResponseLevel({ serverDefault: "standard" })).toBe("standard");
    expect(resolveResponseLevel({ toolDefault: "full", serverDefault: "standard" })).toBe("full");
    expect(resolveResponseLevel({ implied: "full", toolDefault: "standard" })).toBe("full");
    expect(resolveResponseLevel({ requested: "minimal", implied: "full", toolDefault: "standard" })).toBe("minimal");
  });
});

describe("the level pipeline through a real client", () => {
  /** Counts its renders, to show the normal path renders once, at the level the handler was told. */
  class CountedResponse extends ToolResponse {
    renders: ResponseLevel[] = [];
    constructor(private readonly toldLevel: ResponseLevel) {
      super();
    }
    toResponse(level: ResponseLevel) {
      this.renders.push(level);
      return atLevel(level, { minimal: { told: this.toldLevel }, standard: { more: 1 }, full: { most: 2 } });
    }
  }
  const made: CountedResponse[] = [];
  const tool = defineTool({
    name: "levelled",
    title: "Levelled",
    description: "Answers with the level it was told.",
    input: z.object({ format: z.enum(["summary", "detailed"]).optional() }),
    output: z.object({ told: z.string(), more: z.number().optional(), most: z.number().optional() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    responseLevel: "standard",
    levelFromInput: ({ format }) => (format === "detailed" ? "full" : undefined),
    handler: async (_input, ctx) => {
      const response = new CountedResponse(ctx.level);
      made.push(response);
      return response;
    },
  });

  it("resolves once and renders once, at the level the handler saw; a format switch is a request for a level", async () => {
    const conn = await connectInProcess({
      name: "levels",
      version: "0.0.0",
      logger: silentLogger,
      tools: [tool],
      responseLevel: "minimal",
    });
    try {
      const call = async (args: Record<string, unknown>) =>
        ((await conn.client.callTool({ name: "levelled", arguments: args })) as CallToolResult).structuredContent;
      expect(await call({})).toEqual({ told: "standard", more: 1 });
      expect(await call({ format: "detailed" })).toEqual({ told: "full", more: 1, most: 2 });
      expect(await call({ format: "detailed", response_level: "minimal" })).toEqual({ told: "minimal" });
      expect(await call({ response_level: "full" })).toEqual({ told: "full", more: 1, most: 2 });
      expect(made.map((m) => m.renders)).toEqual([["standard"], ["full"], ["minimal"], ["full"]]);
    } finally {
      await conn.close();
    }
  });

  it("LeveledResponse takes parts or a function of the level", () => {
    const fixed = new LeveledResponse({ minimal: { a: 1 }, standard: { b: 2 } });
    const built = new LeveledResponse((level) => ({
      minimal: { items: eachAtLevel(level, [1, 2], (n) => ({ minimal: { n }, full: { sq: n * n } })) },
    }));
    expect(fixed.toResponse("standard")).toEqual({ a: 1, b: 2 });
    expect(built.toResponse("full")).toEqual({
      items: [
        { n: 1, sq: 1 },
        { n: 2, sq: 4 },
      ],
    });
  });
});

describe("assertMinimalShare", () => {
  const ids = Array.from({ length: 60 }, (_, i) => `object-${i}`);
  it("passes a minimal answer of at most 25 % of full, or of at most 120 tokens", async () => {
    const full = { items: ids.map((id) => ({ id, title: `The document called ${id}, about many things`, tags: ["a", "b", "c"] })) };
    await expect(assertMinimalShare("small", { minimal: { count: 60 }, full })).resolves.toMatchObject({ minimal: expect.any(Number) });
    const figures = await assertMinimalShare("ids", { minimal: { ids: ids.slice(0, 30) }, full });
    expect(figures.ratio).toBeLessThanOrEqual(0.25);
  });

  it("throws for a minimal answer over 120 tokens and over 25 % of full", async () => {
    const minimal = { items: ids.map((id) => ({ id })) };
    const full = { items: ids.map((id) => ({ id, title: id })) };
    expect(await jsonTokens(minimal)).toBeGreaterThan(120);
    await expect(assertMinimalShare("heavy", { minimal, full })).rejects.toThrow(/heavy: minimal is \d+ tokens/);
  });
});
