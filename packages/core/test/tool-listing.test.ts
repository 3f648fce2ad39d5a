import { Ajv } from "ajv";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { LeveledResponse, ToolError, defineTool, silentLogger, type ServerDefinition } from "../src/index.js";
import { RESPONSE_LEVELS_NOTE } from "../src/server/create-server.js";
import { connectInProcess, type InProcessConnection } from "../src/testing/index.js";

const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const counted = defineTool({
  name: "counted",
  title: "Counted",
  description: "Counts, or fails when asked to.",
  input: z.object({
    count: z.number().int(),
    from: z.number().int().min(1),
    fail: z.boolean().optional(),
    extra: z.record(z.string(), z.unknown()).optional(),
    // Parameters named like keywords are parameters: never stripped.
    additionalProperties: z.unknown().optional(),
    propertyNames: z.object({ type: z.literal("string") }).optional(),
  }),
  output: z.object({ count: z.number().int(), nested: z.array(z.object({ n: z.number().int().nonnegative() })) }),
  annotations,
  handler: async ({ count, fail }) => {
    if (fail) throw new ToolError("NOT_FOUND", "Nothing to count.", { suggestion: "Count something else." });
    return new LeveledResponse({ minimal: { count, nested: [{ n: 1 }] } });
  },
});

const standardByDefault = defineTool({ ...counted, name: "standard_by_default", responseLevel: "standard" });

describe("tools/list: what each tool costs a model", () => {
  let conn: InProcessConnection | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  const connect = async (extra: Partial<ServerDefinition> = {}) => {
    conn = await connectInProcess({
      name: "listing",
      version: "0.0.0",
      logger: silentLogger,
      tools: [counted, standardByDefault],
      ...extra,
    });
    return conn.client;
  };

  it("response_level is a bare enum naming the tool's actual default: the tool's, else the server's, else minimal", async () => {
    const levelOf = async (client: Awaited<ReturnType<typeof connect>>) =>
      Object.fromEntries(
        (await client.listTools()).tools.map((tool) => [
          tool.name,
          (tool.inputSchema.properties as Record<string, unknown>).response_level,
        ]),
      );
    expect(await levelOf(await connect())).toEqual({
      counted: { type: "string", enum: ["minimal", "standard", "full"], description: "default: minimal" },
      standard_by_default: { type: "string", enum: ["minimal", "standard", "full"], description: "default: standard" },
    });
    await conn?.close();
    const fullServer = await levelOf(await connect({ responseLevel: "full" }));
    expect(fullServer.counted).toMatchObject({ description: "default: full" });
    expect(fullServer.standard_by_default).toMatchObject({ description: "default: standard" });
  });

  it("the levels are explained once, in the instructions of every server", async () => {
    const client = await connect({ instructions: "A listing server." });
    expect(client.getInstructions()).toBe(`A listing server.\n\n${RESPONSE_LEVELS_NOTE}`);
    await conn?.close();
    expect((await connect()).getInstructions()).toBe(RESPONSE_LEVELS_NOTE);
    expect(RESPONSE_LEVELS_NOTE).toMatch(/minimal .* standard .* full/);
  });

  it("schemas carry no ±2^53 integer bounds (zod's for .int()) but keep the real ones", async () => {
    const client = await connect();
    const listed = JSON.stringify((await client.listTools()).tools);
    expect(listed).not.toContain("9007199254740991");
    const tool = (await client.listTools()).tools.find((t) => t.name === "counted");
    expect((tool?.inputSchema.properties as Record<string, unknown>).from).toEqual({ type: "integer", minimum: 1 });
    expect(JSON.stringify(tool?.outputSchema)).toContain('"minimum":0');
  });

  it("schemas carry no constraint that constrains nothing: a record's propertyNames string and additionalProperties {}", async () => {
    const client = await connect();
    const tool = (await client.listTools()).tools.find((t) => t.name === "counted");
    const properties = tool?.inputSchema.properties as Record<string, unknown>;
    expect(properties.extra).toEqual({ type: "object" });
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(["additionalProperties", "propertyNames"]));
    expect(properties.additionalProperties).toEqual({});
    expect(tool?.inputSchema.additionalProperties).toBe(false);
  });

  it("output schemas do not repeat the error body, yet an error's structuredContent passes them (SDK 1.x clients validate errors too)", async () => {
    const client = await connect();
    const tool = (await client.listTools()).tools.find((t) => t.name === "counted");
    const schema = JSON.stringify(tool?.outputSchema);
    for (const field of ["suggestion", "recoverable", "RESOURCE_EXHAUSTED"]) expect(schema).not.toContain(field);
    const validate = new Ajv({ strict: false }).compile(tool?.outputSchema ?? {});
    const error = (await client.callTool({ name: "counted", arguments: { count: 1, from: 1, fail: true } })) as CallToolResult;
    expect(error.isError).toBe(true);
    expect(validate(error.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    const ok = (await client.callTool({ name: "counted", arguments: { count: 1, from: 1 } })) as CallToolResult;
    expect(validate(ok.structuredContent)).toBe(true);
    expect(validate({ count: "one" })).toBe(false);
  });
});
