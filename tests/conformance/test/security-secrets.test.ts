/**
 * Security review (issue #8, part 5): no server prints a key it was given. Every `*-mcp` runs over
 * stdio at debug level with recognisable credentials in its environment (GOOGLE_API_KEY,
 * GEMINI_API_KEY, a *_TOKEN, a *_SECRET, the remote model's key), and is driven into errors —
 * every tool with no arguments and with wrong ones, an unknown tool, every resource, an unknown
 * resource. Neither stderr nor any answer may hold any of the values. The failures of the
 * services that use a key (Gemini with the key echoed, a remote model echoing its token) are
 * checked where those services live: apps/solo-assets-server/test/security-secrets.test.ts and
 * apps/local-model-server/test/security-secrets.test.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnStdioServer } from "@local-mcp/core/testing";
import { describe, expect, it } from "vitest";
import { SERVERS, SERVER_NODE } from "./support/servers.js";

const SECRETS: Record<string, string> = {
  GOOGLE_API_KEY: "AIzaSyConformanceSecretKeyNotReal012345",
  GEMINI_API_KEY: "gemini-conformance-secret-not-real-9f8e",
  GITHUB_TOKEN: "ghp_conformanceTokenNotReal0123456789",
  DEPLOY_SECRET: "deploy-conformance-secret-not-real-77",
  LOCAL_MODEL_REMOTE_API_KEY: "sk-conformance-remote-not-real-5521",
};

describe.each(SERVERS)("$name over stdio with credentials in its environment", (server) => {
  it("prints none of them on stderr or in any answer, whatever it is asked", async () => {
    const dir = await mkdtemp(join(tmpdir(), `secrets-${server.name}-`));
    const base = await server.env(dir);
    // Solo would pick Gemini with a key set; its own fixture says which backends to use.
    const env = {
      ...base,
      ...SECRETS,
      LOCAL_MCP_LOG_LEVEL: "debug",
      ...(base.SOLO_EMBEDDER ? { SOLO_EMBEDDER: base.SOLO_EMBEDDER, SOLO_CRITIC: "off" } : {}),
    };
    const spawned = await spawnStdioServer({
      command: SERVER_NODE,
      args: [server.entry],
      env,
      cwd: dir,
      readyPattern: /ready/,
      readyTimeoutMs: 60_000,
    });
    const answers: string[] = [];
    const record = async (what: Promise<unknown>) =>
      answers.push(
        await what.then(
          (r) => JSON.stringify(r),
          (e: unknown) => String(e),
        ),
      );
    try {
      const { tools } = await spawned.client.listTools();
      for (const tool of tools) {
        await record(spawned.client.callTool({ name: tool.name, arguments: {} }));
        await record(
          spawned.client.callTool({
            name: tool.name,
            arguments: { response_level: "full", name: 42, query: {}, path: "../../etc/passwd", filePath: "/etc/shadow" },
          }),
        );
      }
      await record(spawned.client.callTool({ name: "no_such_tool", arguments: {} }));
      const { resources } = await spawned.client.listResources();
      for (const resource of resources.slice(0, 20)) await record(spawned.client.readResource({ uri: resource.uri }));
      await record(spawned.client.readResource({ uri: "nowhere://x" }));
    } finally {
      await spawned.close();
      await rm(dir, { recursive: true, force: true });
    }
    expect(answers.length).toBeGreaterThan(2);
    const stderr = spawned.stderr();
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(stderr, `${name} on stderr`).not.toContain(value);
      for (const answer of answers) expect(answer, `${name} in an answer`).not.toContain(value);
    }
    spawned.assertCleanStdout();
  });
});
