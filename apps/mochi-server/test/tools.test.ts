import { rmSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { assertLevelsNested, connectInProcess, type InProcessConnection } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MochiRuntime } from "../src/runtime.js";
import { createMochiServer } from "../src/server.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { startRuntime, writeTinyModelFiles, type TinyModelFiles } from "./helpers/tiny-model.js";

// Every tool through the real SDK client, on the tiny generated model with its LoRA (1 thread).
let repo: string;
let model: TinyModelFiles;
let runtime: MochiRuntime;
let plainRuntime: MochiRuntime;
let connection: InProcessConnection;
let plain: InProcessConnection;

beforeAll(async () => {
  repo = copyFixtureRepo();
  await indexInto(repo);
  model = await writeTinyModelFiles();
  runtime = await startRuntime({ MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora }, repo);
  plainRuntime = await startRuntime({ MOCHI_MODEL: model.plainModel, MOCHI_ADAPTER: `${model.lora}:1` }, repo);
  connection = await connectInProcess(createMochiServer(runtime.config, { runtime }));
  plain = await connectInProcess(createMochiServer(plainRuntime.config, { runtime: plainRuntime }));
});

afterAll(async () => {
  await connection?.close();
  await plain?.close();
  await runtime?.dispose();
  await plainRuntime?.dispose();
  rmSync(repo, { recursive: true, force: true });
  rmSync(model.dir, { recursive: true, force: true });
});

type Body = Record<string, unknown>;

async function call(
  name: string,
  args: Record<string, unknown>,
  on = connection,
): Promise<{ body: Body; wallMs: number; result: CallToolResult }> {
  const started = performance.now();
  const result = (await on.client.callTool({ name, arguments: args })) as CallToolResult;
  const wallMs = performance.now() - started;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return { body: result.structuredContent as Body, wallMs, result };
}

/** Timings differ between calls; everything else of a greedy call must nest exactly. */
function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== "inference_time_ms" && k !== "ms")
        .map(([k, v]) => [k, withoutTimings(v)]),
    );
  }
  return value;
}

/** Calls a tool at the three levels (one after the other) and checks minimal ⊆ standard ⊆ full. */
async function levels(name: string, args: Record<string, unknown>) {
  const bodies: Body[] = [];
  for (const level of ["minimal", "standard", "full"] as const) bodies.push((await call(name, { ...args, response_level: level })).body);
  const [minimal, standard, full] = bodies as [Body, Body, Body];
  assertLevelsNested({ minimal: withoutTimings(minimal), standard: withoutTimings(standard), full: withoutTimings(full) });
  expect(JSON.stringify(minimal).length).toBeLessThan(JSON.stringify(full).length);
  return { minimal: minimal as Body, standard: standard as Body, full: full as Body };
}

describe("mochi tools over the MCP client", () => {
  it("lists the three tools with output schemas and explicit annotations", async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["domain_query", "complete_code", "suggest_pattern"]);
    for (const tool of tools) {
      expect(tool.outputSchema).toBeDefined();
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    }
  });

  it("domain_query answers from the model, grounded in the most relevant catalog entries, at nested levels", async () => {
    const { minimal, standard, full } = await levels("domain_query", {
      instruction: "How are errors reported? Which custom error classes exist?",
      max_tokens: 24,
    });
    expect(Object.keys(minimal).sort()).toEqual(["confidence", "inference_time_ms", "response", "sources", "tokens_generated"]);
    expect(minimal.tokens_generated).toBeGreaterThan(0);
    expect(minimal.tokens_generated).toBeLessThanOrEqual(24);
    expect(minimal.confidence).toBeGreaterThan(0);
    expect(minimal.confidence).toBeLessThanOrEqual(1);
    const sources = minimal.sources as string[];
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.length).toBeLessThanOrEqual(4);
    // The question is about errors: the error pattern or convention is among the grounding.
    expect(
      sources.some((s) => /mochi:\/\/(?:patterns\/custom-error-class|conventions\/error-handling|patterns\/error-handling)/.test(s)),
    ).toBe(true);
    expect((standard.grounding as Array<{ uri: string }>).map((g) => g.uri)).toEqual(sources);
    // The model really saw the entries it names.
    expect(full.prompt_input).toContain("Relevant entries of this codebase's catalog");
    expect(full.prompt_input).toMatch(/Custom error classes|Error handling/);
    expect(full.model).toContain("tiny-lora.gguf");
  });

  it("domain_query is deterministic (greedy) for the same question", async () => {
    const a = await call("domain_query", { instruction: "What does createUserService return?", max_tokens: 16 });
    const b = await call("domain_query", { instruction: "What does createUserService return?", max_tokens: 16 });
    expect(a.body.response).toBe(b.body.response);
    expect(a.body.sources).toEqual(b.body.sources);
  });

  it("complete_code fills in the middle on a model with FIM tokens, with up to 3 distinct alternatives", async () => {
    const { minimal, standard, full } = await levels("complete_code", {
      prefix: "export function add(a: number, b: number): number {\n  return ",
      suffix: ";\n}\n",
      language: "typescript",
      max_tokens: 12,
      max_alternatives: 3,
    });
    expect(typeof minimal.completion).toBe("string");
    // minimal is the completion (issue 16: ≤ 25 % of full); the alternatives come from standard, complete_code's default.
    expect(Object.keys(minimal).sort()).toEqual(["completion", "inference_time_ms"]);
    const alternatives = standard.alternatives as string[];
    expect(alternatives.length).toBeLessThanOrEqual(3);
    const all = [minimal.completion as string, ...alternatives].map((t) => t.replace(/\s+/g, " ").trim());
    expect(new Set(all).size).toBe(all.length);
    expect(alternatives.every((a) => a.trim() !== "")).toBe(true);
    expect(standard.mode).toBe("infill");
    const candidates = full.candidates as Array<{ temperature: number; seed: number | null; boundary: string }>;
    expect(candidates[0]).toMatchObject({ temperature: 0, seed: null });
    expect(candidates.slice(1).map((c) => c.seed)).toEqual([1, 2, 3].slice(0, candidates.length - 1));
    // Mid-line completions end at the end of the line at the latest.
    expect(minimal.completion as string).not.toContain("\n");
  });

  it("complete_code continues the prefix on a model without FIM tokens, and says so", async () => {
    const { body } = await call(
      "complete_code",
      { prefix: "def add(a, b):\n    return ", language: "python", max_tokens: 8, max_alternatives: 0, response_level: "standard" },
      plain,
    );
    expect(body.mode).toBe("prefix-completion");
    expect(body.alternatives).toEqual([]);
  });

  it("suggest_pattern ranks the catalog's patterns for a goal and re-ranks with the loaded model", async () => {
    const { minimal, standard, full } = await levels("suggest_pattern", {
      goal: "report a failure with a custom error class that carries an error code",
      context: "throw new Error('user not found')",
    });
    // minimal: name, relevance and the resource with the code; the description and example from standard.
    const patterns = minimal.patterns as Array<{ name: string; relevance: number; uri: string }>;
    expect(patterns.length).toBe(3);
    for (const p of patterns) {
      expect(Object.keys(p).sort()).toEqual(["name", "relevance", "uri"]);
      expect(p.uri).toBe(`mochi://patterns/${p.name}`);
      expect(p.relevance).toBeGreaterThanOrEqual(0);
      expect(p.relevance).toBeLessThanOrEqual(1);
    }
    const relevances = patterns.map((p) => p.relevance);
    expect([...relevances].sort((a, b) => b - a)).toEqual(relevances);
    expect(patterns.map((p) => p.name)).toContain("custom-error-class");
    for (const p of standard.patterns as Array<{ title: string; description: string; example: string }>) {
      expect(p.description.length).toBeGreaterThan(0);
      expect(p.example.length).toBeGreaterThan(0);
    }
    expect(standard.ranked_by).toBe("embeddings+model");
    // Without response_level the tool answers at standard: the description and example are what it is for.
    const { body: unasked } = await call("suggest_pattern", { goal: "register handlers by name" });
    expect(unasked).toHaveProperty("ranked_by");
    expect((unasked.patterns as Array<Record<string, unknown>>)[0]).toHaveProperty("example");
    expect((full.patterns as Array<{ model_score: number | null }>).every((p) => p.model_score !== null)).toBe(true);
  });

  it("every tool answers well within the deadline (L-response-time)", async () => {
    const deadline = runtime.config.deadlineMs;
    for (const [name, args] of [
      ["domain_query", { instruction: "Where do tests live?", max_tokens: 32 }],
      ["complete_code", { prefix: "const total = ", suffix: "\n", max_tokens: 16 }],
      ["suggest_pattern", { goal: "register handlers by name" }],
    ] as const) {
      const { body, wallMs } = await call(name, args);
      expect(wallMs).toBeLessThan(deadline);
      expect(body.inference_time_ms as number).toBeLessThan(deadline);
    }
  });

  it("refuses unknown arguments with INVALID_INPUT naming the field", async () => {
    const result = (await connection.client.callTool({
      name: "suggest_pattern",
      arguments: { goal: "x", colour: "red" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "INVALID_INPUT" } });
    expect(JSON.stringify(result.structuredContent)).toContain("colour");
  });

  it("the catalog path is where MOCHI_CATALOG's default points", () => {
    expect(runtime.config.catalogPath).toBe(join(repo, ".mochi", "catalog.json"));
  });
});
