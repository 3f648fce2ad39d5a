/**
 * What each server's tool list costs a model, in o200k tokens (gpt-tokenizer, the stand-in for
 * Claude's tokenizer). Counted per tool: `JSON.stringify({ name, description, input_schema })` of
 * its tools/list entry — the name, the description and the input schema, which is what Claude
 * Code sends the model for each MCP tool (title, annotations and output schema are not sent).
 * Every server's tools are listed through the SDK client from its built bin over stdio; the
 * average per tool must be at most 170 tokens. Output schemas are checked too: no copy of the
 * error body (core's one-line error branch stands for it) and no ±2^53 integer bounds.
 *
 * The table is printed at the end.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { Tool } from "@modelcontextprotocol/client";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, describe, expect, it } from "vitest";
import { SERVERS, SERVER_NODE } from "./support/servers.js";

const MAX_AVERAGE = 170;

/** The four apps (the sample server is core's demonstration, not a product). */
const MEASURED = ["catdoc-mcp", "local-model-mcp", "solo-assets-mcp", "mochi-mcp"];

/** What Claude Code sends the model for one tool. */
export function modelFacingTokens(tool: Tool): number {
  return countTokens(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
}

/** Subschemas that spell out core's error body (an `error` object with code, recoverable and suggestion). */
function errorBodies(schema: unknown): number {
  if (schema === null || typeof schema !== "object") return 0;
  const node = schema as { properties?: { error?: { properties?: Record<string, unknown> } } };
  const error = node.properties?.error?.properties;
  const here = error !== undefined && ["code", "recoverable", "suggestion"].every((key) => key in error) ? 1 : 0;
  return here + Object.values(schema).reduce<number>((sum, value) => sum + errorBodies(value), 0);
}

interface Row {
  server: string;
  tools: number;
  total: number;
  largest: string;
}

const rows: Row[] = [];

describe.each(SERVERS.filter((s) => MEASURED.includes(s.name)))("the tool list of $name", (server) => {
  it(`costs at most ${MAX_AVERAGE} o200k tokens per tool on average, with output schemas free of the error body and ±2^53 bounds`, async () => {
    const dir = await mkdtemp(join(tmpdir(), `tool-tokens-${server.name}-`));
    const spawned = await spawnStdioServer({
      command: SERVER_NODE,
      args: [server.entry],
      env: await server.env(dir),
      cwd: dir,
      readyTimeoutMs: 60_000,
    });
    try {
      const { tools } = await spawned.client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      const costs = tools.map((tool) => ({ name: tool.name, tokens: modelFacingTokens(tool) }));
      const total = costs.reduce((sum, c) => sum + c.tokens, 0);
      const largest = costs.reduce((max, c) => (c.tokens > max.tokens ? c : max));
      rows.push({ server: server.name, tools: tools.length, total, largest: `${largest.name} ${largest.tokens}` });
      for (const tool of tools) {
        expect.soft(errorBodies(tool.outputSchema), `${tool.name}: output schema repeats the error body`).toBe(0);
        expect.soft(JSON.stringify(tool), `${tool.name}: ±2^53 integer bounds`).not.toContain("9007199254740991");
        expect.soft(tool.description?.length ?? 0, `${tool.name} has a description`).toBeGreaterThan(20);
      }
      expect(total / tools.length, `${server.name}: ${costs.map((c) => `${c.name} ${c.tokens}`).join(", ")}`).toBeLessThanOrEqual(
        MAX_AVERAGE,
      );
      spawned.assertCleanStdout();
    } finally {
      await spawned.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

afterAll(() => {
  console.log(
    [
      `Model-facing tools/list cost (o200k tokens of JSON.stringify({name, description, input_schema}) per tool; budget ${MAX_AVERAGE} on average):`,
      `${"server".padEnd(18)} ${"tools".padStart(5)} ${"total".padStart(7)} ${"average".padStart(8)}  largest`,
      ...rows.map(
        (r) =>
          `${r.server.padEnd(18)} ${String(r.tools).padStart(5)} ${String(r.total).padStart(7)} ${(r.total / r.tools).toFixed(0).padStart(8)}  ${r.largest}`,
      ),
    ].join("\n"),
  );
});
