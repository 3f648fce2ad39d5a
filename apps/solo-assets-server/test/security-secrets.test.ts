/**
 * Security review (issue #8, part 5): no log line and no tool result prints a key. The real bin
 * runs at debug level with a recognisable GOOGLE_API_KEY (and a token) in its environment, its
 * Gemini embedder and critic pointed at loopback fakes that fail with the key echoed in the
 * error body — 400 (a key the fake does not accept: "API key not valid … (got <key>)"), 401,
 * 403 and 500 (retried), with the key also in a `?key=` URL as Google's errors sometimes carry
 * it. Saves, searches and failures through the tools: neither stderr nor any result holds it.
 */
import { fileURLToPath } from "node:url";
import { startFakeGemini, spawnStdioServer } from "@local-mcp/core/testing";
import type { FakeGemini, SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGeminiGenerate } from "./fixtures/fake-gemini-generate.js";
import type { FakeGeminiGenerate } from "./fixtures/fake-gemini-generate.js";
import { tempLibrary, testEnv } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const KEY = "AIzaSySoloSecretsKeyNotReal0123456789ab";
const TOKEN = "ghp_solo_secrets_token_not_real_42";
const SECRETS = [KEY, TOKEN];
const CODE = 'def double(x: int) -> int:\n    """Twice x."""\n    return 2 * x\n';

let library: TempLibrary;
let embed: FakeGemini;
let generate: FakeGeminiGenerate;
const servers: SpawnedStdioServer[] = [];
const results: string[] = [];

async function start(overrides: Record<string, string>): Promise<SpawnedStdioServer> {
  const server = await spawnStdioServer({
    command: process.execPath,
    args: [MCP],
    env: testEnv(library.dbPath, {
      GOOGLE_API_KEY: KEY,
      GITHUB_TOKEN: TOKEN,
      LOCAL_MCP_LOG_LEVEL: "debug",
      SOLO_CRITIC: "off",
      ...overrides,
    }),
    readyTimeoutMs: 30_000,
  });
  servers.push(server);
  return server;
}

async function call(server: SpawnedStdioServer, name: string, args: Record<string, unknown>) {
  const result = await server.client.callTool({ name, arguments: { response_level: "full", ...args } }, { timeout: 120_000 });
  results.push(JSON.stringify(result));
  return result;
}

beforeAll(async () => {
  library = tempLibrary();
  embed = await startFakeGemini({ apiKey: KEY });
  generate = await startFakeGeminiGenerate();
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await embed?.close();
  await generate?.close();
  library?.remove();
});

describe("keys never reach a result or a log line", () => {
  it("Gemini embeddings failing with the key echoed (401, 403, 500, and a key it refuses)", async () => {
    const server = await start({ SOLO_EMBEDDER: "gemini", SOLO_GEMINI_BASE_URL: embed.baseUrl });
    let version = 0;
    for (const status of [401, 403, 500]) {
      embed.failAlways({
        status,
        message: `Request had invalid authentication credentials: ${KEY}. Retry https://generativelanguage.googleapis.com/v1beta/models/x:batchEmbedContents?key=${KEY}`,
      });
      const saved = await call(server, "save_function", {
        name: "double",
        code: CODE,
        description: `Double a number (${status})`,
        test_cases: [{ input: { x: 2 }, expected: 4 }],
      });
      expect(saved.isError, JSON.stringify(saved)).toBeFalsy();
      version = (saved.structuredContent as { version: number }).version;
      const search = await call(server, "search_functions", { query: "double a number" });
      expect(search.isError).toBeFalsy();
    }
    expect(version).toBe(3);
    // The fake got the key: the echoes had something to leak.
    expect(embed.requests.map((r) => r.apiKey)).toContain(KEY);
    embed.reset();
    const refused = await start({ SOLO_EMBEDDER: "gemini", SOLO_GEMINI_BASE_URL: embed.baseUrl, GOOGLE_API_KEY: `${KEY}-wrong` });
    await call(refused, "save_function", {
      name: "double",
      code: CODE,
      description: "Double a number (refused key)",
      test_cases: [{ input: { x: 2 }, expected: 4 }],
    });
    await call(refused, "search_functions", { query: "double a number" });
    expect(embed.requests.map((r) => r.apiKey)).toContain(`${KEY}-wrong`);
  }, 180_000);

  it("the Gemini critic failing with the key echoed (401, 500)", async () => {
    // double_critic is double renamed, in the same library: the duplicate check is not what this test is about.
    const server = await start({
      SOLO_EMBEDDER: "local",
      SOLO_CRITIC: "gemini",
      SOLO_GEMINI_BASE_URL: generate.baseUrl,
      SOLO_DUPLICATES: "off",
    });
    for (const status of [401, 500]) {
      generate.failNext(status);
      const saved = await call(server, "save_function", {
        name: "double_critic",
        code: CODE.replace("def double(", "def double_critic("),
        description: "Double a number",
        test_cases: [{ input: { x: 2 }, expected: 4 }],
      });
      expect(saved.isError).toBeFalsy();
      expect((saved.structuredContent as { status: string }).status).toBe("unverified");
    }
    expect(generate.requests.length).toBeGreaterThanOrEqual(2);
    expect(generate.requests.every((r) => r.apiKey === KEY)).toBe(true);
  }, 180_000);

  it("no result and no stderr line of any of these servers holds the key or the token", () => {
    expect(results.length).toBeGreaterThanOrEqual(9);
    for (const secret of SECRETS) {
      for (const result of results) expect(result).not.toContain(secret);
      for (const server of servers) expect(server.stderr()).not.toContain(secret);
    }
    // The failures were logged (debug level): the check had lines to look at.
    const stderr = servers.map((s) => s.stderr()).join("\n");
    expect(stderr).toMatch(/Gemini|embedding|critic/i);
    // …and the results said what failed, with the key cut out.
    expect(results.join("\n")).toContain("[redacted]");
    for (const server of servers) server.assertCleanStdout();
  });
});
