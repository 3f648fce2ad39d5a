/**
 * Start-up (issue #14): a tool's schemas may be built on first use (lazySchema + getters on the
 * definition), and createServer and initialize read neither; tools/list and tools/call do.
 */
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { LeveledResponse, defineTool, lazySchema, silentLogger } from "../src/index.js";
import { connectInProcess, type InProcessConnection } from "../src/testing/index.js";

let conn: InProcessConnection | undefined;
afterEach(async () => {
  await conn?.close();
  conn = undefined;
});

describe("lazySchema", () => {
  it("builds once, on the first call", () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds += 1;
      return z.object({ id: z.string() });
    });
    expect(builds).toBe(0);
    expect(schema()).toBe(schema());
    expect(builds).toBe(1);
  });

  it("createServer and initialize read no tool's input or output; tools/list and tools/call do", async () => {
    const reads: string[] = [];
    const input = lazySchema(() => z.object({ id: z.string() }));
    const output = lazySchema(() => z.object({ id: z.string() }));
    const echo = defineTool({
      name: "echo",
      title: "Echo",
      description: "Answers with the id it was given.",
      get input() {
        reads.push("input");
        return input();
      },
      get output() {
        reads.push("output");
        return output();
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: async ({ id }) => new LeveledResponse({ minimal: { id } }),
    });
    conn = await connectInProcess({ name: "lazy", version: "0.0.0", tools: [echo], logger: silentLogger });
    expect(reads).toEqual([]);
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo"]);
    expect(new Set(reads)).toEqual(new Set(["input", "output"]));
    const result = await conn.client.callTool({ name: "echo", arguments: { id: "a" } });
    expect(result.structuredContent).toEqual({ id: "a" });
  });
});
