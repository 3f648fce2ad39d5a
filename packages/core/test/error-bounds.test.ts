/**
 * Two protocol edges the fuzz harness found (tests/fuzz/regressions keeps the original cases):
 * a malformed tools/call is a JSON-RPC -32602 Invalid params (not -32603), and an error body that
 * echoes a huge argument is bounded far below Claude Code's 25,000-token limit.
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { ToolError, ToolErrorBodySchema, defineTool, estimateJsonTokens, silentLogger } from "../src/index.js";
import { MAX_ERROR_BODY_CHARS, boundedErrorBody } from "../src/server/bounded-error-body.js";
import { connectInProcess, type InProcessConnection } from "../src/testing/index.js";

const lookupTool = defineTool({
  name: "lookup",
  title: "Lookup",
  description: "Finds a thing by id; the error names the id it could not find.",
  input: z.object({ id: z.string() }),
  output: z.object({ id: z.string() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ id }) => {
    throw new ToolError("NOT_FOUND", `No thing '${id}'.`, {
      suggestion: `List the things; '${id}' is not one.`,
      details: { id, tried: [id, id, id] },
    });
  },
});

let conn: InProcessConnection | undefined;
afterEach(async () => {
  await conn?.close();
  conn = undefined;
});

async function connect(): Promise<InProcessConnection> {
  conn = await connectInProcess({ name: "bounds", version: "0.0.0", tools: [lookupTool], logger: silentLogger });
  return conn;
}

describe("error bounds", () => {
  it("answers a tools/call whose arguments are not an object with -32602 Invalid params", async () => {
    const { client } = await connect();
    for (const args of ["a string", [1, 2], null]) {
      const call = client.request({ method: "tools/call", params: { name: "lookup", arguments: args as never } }, z.unknown());
      await expect(call).rejects.toSatisfy(
        (error: unknown) => error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams,
      );
    }
    // The server still answers.
    const result = await client.callTool({ name: "lookup", arguments: { id: "x" } });
    expect(ToolErrorBodySchema.parse(result.structuredContent).error.code).toBe("NOT_FOUND");
  });

  it("bounds an error that echoes a 1 MiB argument, keeping its code and the start of its message", async () => {
    const { client } = await connect();
    const id = "q".repeat(1 << 20);
    const result = await client.callTool({ name: "lookup", arguments: { id } });
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    expect(text.length).toBeLessThanOrEqual(MAX_ERROR_BODY_CHARS);
    expect(estimateJsonTokens(text)).toBeLessThan(5_000);
    const error = ToolErrorBodySchema.parse(result.structuredContent).error;
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message.startsWith("No thing 'qqq")).toBe(true);
    expect(error.message).toMatch(/more characters\)$/);
  });

  it("sends a body within the bound unchanged", () => {
    const body = new ToolError("INVALID_INPUT", "Bad field.", {
      suggestion: "Fix it.",
      details: { fields: [{ field: "a", message: "b" }] },
    }).toBody();
    expect(boundedErrorBody(body)).toBe(body);
  });
});
