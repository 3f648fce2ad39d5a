import type { CallToolResult } from "@modelcontextprotocol/client";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_RESPONSE_TOKENS,
  LeveledResponse,
  ToolErrorBodySchema,
  ToolResponse,
  atLevel,
  defineTool,
  estimateJsonTokens,
  silentLogger,
  type ResponseLevel,
  type ServerDefinition,
} from "../src/index.js";
import { tokensAboveBudget } from "../src/response-budget.js";
import { echoTool } from "../src/sample/sample-server.js";
import { connectInProcess, type InProcessConnection } from "../src/testing/index.js";

/** A list whose items carry `detail` characters of text at standard and more at full. */
class ThingsResponse extends ToolResponse {
  constructor(
    private readonly count: number,
    private readonly detail: number,
  ) {
    super();
  }
  toResponse(level: ResponseLevel) {
    return {
      things: Array.from({ length: this.count }, (_, i) =>
        atLevel(level, { minimal: { id: `t${i}` }, standard: { text: "x".repeat(this.detail) }, full: { more: "y".repeat(this.detail) } }),
      ),
    };
  }
}

const ListedThings = z.object({ things: z.array(z.object({ id: z.string(), text: z.string().optional(), more: z.string().optional() })) });

const listTool = defineTool({
  name: "list_things",
  title: "List things",
  description: "Lists things.",
  input: z.object({ count: z.number().int().min(0), detail: z.number().int().min(0) }),
  output: z.object({ things: z.array(z.object({ id: z.string(), text: z.string().optional(), more: z.string().optional() })) }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ count, detail }) => new ThingsResponse(count, detail),
});

const writeTool = defineTool({
  name: "write_big",
  title: "Write",
  description: "Changes state and answers at length.",
  input: z.object({ chars: z.number().int() }),
  output: z.object({ text: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ chars }) => new LeveledResponse({ minimal: { text: "z".repeat(chars) } }),
});

function errorOf(result: CallToolResult) {
  expect(result.isError).toBe(true);
  return ToolErrorBodySchema.parse(result.structuredContent).error;
}

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe("the response budget (no answer above Claude Code's 25,000-token limit)", () => {
  let conn: InProcessConnection | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  const connect = async (extra: Partial<ServerDefinition> = {}) => {
    conn = await connectInProcess({
      name: "budget",
      version: "0.0.0",
      logger: silentLogger,
      tools: [listTool, writeTool, echoTool],
      ...extra,
    });
    return conn.client;
  };

  it("estimates tokens as chars/4 of the JSON text and defaults to 25,000", () => {
    expect(DEFAULT_MAX_RESPONSE_TOKENS).toBe(25_000);
    expect(estimateJsonTokens("x".repeat(100_000))).toBe(25_000);
    expect(estimateJsonTokens("x".repeat(100_001))).toBe(25_001);
  });

  it("counts a tool answer in o200k tokens, never fewer: within the limit in UTF-8 bytes it is not tokenized, above it it is counted", async () => {
    expect(await tokensAboveBudget("x".repeat(1_000), 1_000)).toBeUndefined();
    // 1,000 bytes of short words and ids: ~330 tokens, within.
    expect(await tokensAboveBudget("ab ".repeat(333), 300)).toBe(334);
    expect(await tokensAboveBudget("ab ".repeat(333), 334)).toBeUndefined();
    // Multi-byte text: each "é" is 2 bytes, the bound still holds.
    expect(await tokensAboveBudget("é".repeat(600), 1_000)).toBeUndefined();
    // A long run of one letter (one pre-tokenizer piece, quadratic to encode) is counted as its bytes, at once.
    const started = performance.now();
    expect(await tokensAboveBudget(`{"text":"${"a".repeat(200_000)}"}`, 25_000)).toBeGreaterThanOrEqual(200_000);
    expect(performance.now() - started).toBeLessThan(2_000);
    // A special token's spelling is text, not an error.
    expect(await tokensAboveBudget("<|endoftext|> ".repeat(100), 50)).toBeGreaterThan(50);
  });

  it("refuses an answer of short ids that chars/4 put under the limit but o200k puts over it", async () => {
    const client = await connect({ maxResponseTokens: 1_000 });
    const result = (await client.callTool({
      name: "list_things",
      arguments: { count: 250, detail: 0, response_level: "minimal" },
    })) as CallToolResult;
    const body = JSON.stringify(ListedThings.parse(new ThingsResponse(250, 0).toResponse("minimal")));
    expect(estimateJsonTokens(body)).toBeLessThan(1_000);
    const error = errorOf(result);
    expect(error.code).toBe("RESOURCE_EXHAUSTED");
    expect(error.message).not.toContain("chars/4");
    expect(error.message).toMatch(/minimal answer of list_things is ~\d+ tokens \(o200k\), above the 1000-token limit/);
    expect((error.details as { estimatedTokens: number }).estimatedTokens).toBeGreaterThan(1_000);
  });

  it("sends an answer within the budget unchanged", async () => {
    const client = await connect({ maxResponseTokens: 1_000 });
    const result = (await client.callTool({
      name: "list_things",
      arguments: { count: 10, detail: 100, response_level: "full" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(estimateJsonTokens(text(result))).toBeLessThanOrEqual(1_000);
  });

  it("replaces an answer above the budget by RESOURCE_EXHAUSTED naming the level that fits", async () => {
    const client = await connect({ maxResponseTokens: 1_000 });
    const result = (await client.callTool({
      name: "list_things",
      arguments: { count: 100, detail: 30, response_level: "full" },
    })) as CallToolResult;
    const error = errorOf(result);
    expect(error.code).toBe("RESOURCE_EXHAUSTED");
    expect(error.recoverable).toBe(true);
    expect(error.message).toMatch(/full answer of list_things is ~\d+ tokens .* above the 1000-token limit/);
    expect(error.suggestion).toMatch(/response_level "minimal"/);
    expect(error.details).toMatchObject({ maxTokens: 1_000, level: "full" });
    const lower = (error.details as { lowerLevels: Record<string, number> }).lowerLevels;
    expect(Object.keys(lower).sort()).toEqual(["minimal", "standard"]);
    expect(lower.minimal).toBeLessThanOrEqual(1_000);
    expect(estimateJsonTokens(text(result))).toBeLessThan(200);
  });

  it("asks for fewer items when no level fits, and says a state-changing call took effect", async () => {
    const client = await connect({ maxResponseTokens: 1_000 });
    const list = errorOf((await client.callTool({ name: "list_things", arguments: { count: 2_000, detail: 0 } })) as CallToolResult);
    expect(list.suggestion).toMatch(/fewer items/);
    const write = errorOf((await client.callTool({ name: "write_big", arguments: { chars: 10_000 } })) as CallToolResult);
    expect(write.code).toBe("RESOURCE_EXHAUSTED");
    expect(write.message).toMatch(/effects have taken place/);
  });

  it("holds at the default limit: the sample echo of 100,000 characters of short words (~33,000 tokens) is refused, 90,000 of longer words (~18,000 tokens) pass", async () => {
    const client = await connect();
    const big = (await client.callTool({ name: "echo", arguments: { text: "ab ".repeat(33_333) } })) as CallToolResult;
    expect(errorOf(big).code).toBe("RESOURCE_EXHAUSTED");
    const fits = (await client.callTool({ name: "echo", arguments: { text: "word ".repeat(18_000) } })) as CallToolResult;
    expect(fits.isError).toBeFalsy();
    expect(estimateJsonTokens(text(fits))).toBeLessThanOrEqual(25_000);
  });
});
