/**
 * Every stdio server passes the official MCP Inspector CLI (0.15.0, an independent client):
 * tools/list gives well-formed tools (input and output schemas, explicit annotations), and
 * resources/list answers — with the resources where the server has them, else with an empty list
 * (every server advertises the resources capability and answers resources/list).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInspectorCli } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVERS, SERVER_NODE } from "./support/servers.js";

interface ListedTool {
  name: string;
  inputSchema?: { type?: string };
  outputSchema?: unknown;
  annotations?: Record<string, unknown>;
}

describe.each(SERVERS)("the MCP Inspector CLI against $name over stdio", (server) => {
  let dir: string;
  let env: Record<string, string>;
  // The Inspector refuses `-e KEY=` (an empty value); it starts the server with a default
  // environment (PATH, HOME…) plus these, so a variable left out is unset there.
  const inspect = (method: "tools/list" | "resources/list") =>
    runInspectorCli({
      server: [SERVER_NODE, server.entry],
      method,
      env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== "")),
      resolveFrom: import.meta.url,
      timeoutMs: 45_000,
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `inspector-${server.name}-`));
    env = await server.env(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("tools/list: every tool has an object input schema, an output schema and explicit annotations", async () => {
    const { tools } = (await inspect("tools/list")) as { tools: ListedTool[] };
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(tool.inputSchema?.type, tool.name).toBe("object");
      expect(tool.outputSchema, tool.name).toBeDefined();
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe("boolean");
      }
    }
  });

  if (server.listsResources) {
    it("resources/list: lists resources with a uri and a name each", async () => {
      const { resources } = (await inspect("resources/list")) as { resources: { uri: string; name: string }[] };
      expect(resources.length).toBeGreaterThan(0);
      for (const resource of resources) {
        expect(() => new URL(resource.uri)).not.toThrow();
        expect(resource.name.length).toBeGreaterThan(0);
      }
    });
  } else {
    it("resources/list: answers an empty list, having no resources", async () => {
      const { resources } = (await inspect("resources/list")) as { resources: unknown[] };
      expect(resources).toEqual([]);
    });
  }
});
