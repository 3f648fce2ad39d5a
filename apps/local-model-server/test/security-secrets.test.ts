/**
 * Security review (issue #8, part 5): no log line and no tool result prints a key. The real bin
 * runs with a remote model whose bearer token (LOCAL_MODEL_REMOTE_API_KEY) and a Gemini key in
 * its environment are recognisable; the fake OpenAI-compatible server echoes the token it got in
 * every error body (as real servers do: "Incorrect API key provided: …"), at 401, 403 and 500
 * (retried). Neither stderr (at debug level) nor any result may contain either value.
 */
import { join } from "node:path";
import { FakeOpenAi, spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_DIR, PROJECT, tempDir } from "./helpers.js";

const MCP = join(APP_DIR, "dist/mcp.js");
const TOKEN = "sk-remote-token-not-real-5f1c2a9e7d";
const GOOGLE_KEY = "AIzaSyLocalModelKeyNotReal0123456789abcd";
const SECRETS = [TOKEN, GOOGLE_KEY];

let state: Awaited<ReturnType<typeof tempDir>>;
let fake: FakeOpenAi;
let server: SpawnedStdioServer;
const results: string[] = [];

/** What the fake answers to everything: the status, with the token it received echoed back. */
function echoing(status: number) {
  return (_path: string) => {
    const got = fake.requests.at(-1)?.authorization ?? "";
    return { status, body: { error: { message: `Incorrect API key provided: ${got}. See ?key=${got}`, type: "invalid_request_error" } } };
  };
}

async function call(args: Record<string, unknown>) {
  const result = await server.client.callTool({ name: "local_generate", arguments: args }, { timeout: 60_000 });
  results.push(JSON.stringify(result));
  return result;
}

beforeAll(async () => {
  state = await tempDir("local-model-secrets-");
  fake = await new FakeOpenAi().start();
  server = await spawnStdioServer({
    command: process.execPath,
    args: [MCP],
    cwd: APP_DIR,
    env: {
      LOCAL_MODEL_ROOTS: PROJECT,
      LOCAL_MODEL_STATE_DIR: state.path,
      LOCAL_MODEL_REMOTE_BASE_URL: fake.url,
      LOCAL_MODEL_REMOTE_MODEL: "fake-model",
      LOCAL_MODEL_REMOTE_API_KEY: TOKEN,
      GOOGLE_API_KEY: GOOGLE_KEY,
      LOCAL_MCP_LOG_LEVEL: "debug",
      LOCAL_MODEL_LOG_LEVEL: "debug",
    },
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.stop();
  await state?.remove();
});

describe("keys never reach a result or a log line", () => {
  it.each([401, 403, 500])("the remote answers %i with the token echoed: a coded error without it", async (status) => {
    fake.fallback = echoing(status);
    const result = await call({ template: "Hello {{name}}", variables: { name: "x" }, engine: "model" });
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as { error: { code: string; message: string } }).error;
    expect(["NOT_READY", "UPSTREAM_ERROR"]).toContain(error.code);
    // The error still says what happened, only without the token.
    expect(error.message).toMatch(new RegExp(`HTTP ${status}`));
    // The fake did get the real token: the echo had something to leak.
    expect(fake.requests.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("the model call itself fails with the token echoed (models answer, completions do not)", async () => {
    fake.fallback = (path) => (path === "/v1/models" ? { status: 200, body: { data: [{ id: "fake-model" }] } } : echoing(500)(path));
    const result = await call({ template: "Hello {{name}}", variables: { name: "x" }, engine: "model" });
    expect(result.isError).toBe(true);
    expect(fake.requests.some((r) => r.path === "/v1/chat/completions" || r.path === "/v1/completions")).toBe(true);
  });

  it("no result and no stderr line holds the token or the Gemini key", () => {
    expect(results.length).toBe(4);
    for (const secret of SECRETS) {
      for (const result of results) expect(result).not.toContain(secret);
      expect(server.stderr()).not.toContain(secret);
    }
    // Debug logging was on and the failures were logged: the check had lines to look at.
    expect(server.stderr()).toMatch(/remote|attempt/i);
    server.assertCleanStdout();
  });
});
