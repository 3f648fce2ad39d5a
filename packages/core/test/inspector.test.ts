import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runInspectorCli } from "../src/testing/index.js";

const SAMPLE = [process.execPath, fileURLToPath(new URL("../dist/sample/mcp.js", import.meta.url))];

describe("the MCP Inspector CLI (an independent client) against the sample stdio server", () => {
  it("lists tools with input and output schemas", async () => {
    const result = (await runInspectorCli({ server: SAMPLE, method: "tools/list" })) as {
      tools: { name: string; outputSchema?: unknown }[];
    };
    expect(result.tools.map((t) => t.name)).toEqual(["echo", "wait"]);
    expect(result.tools.every((t) => t.outputSchema !== undefined)).toBe(true);
  });

  it("calls a tool and gets structuredContent", async () => {
    const result = (await runInspectorCli({ server: SAMPLE, method: "tools/call", toolName: "echo", toolArgs: { text: "hi" } })) as {
      structuredContent: unknown;
    };
    expect(result.structuredContent).toEqual({ text: "hi", length: 2 });
  });

  it("lists resources", async () => {
    const result = (await runInspectorCli({ server: SAMPLE, method: "resources/list" })) as { resources: { uri: string }[] };
    expect(result.resources.map((r) => r.uri)).toEqual(["sample://server-info"]);
  });
});
