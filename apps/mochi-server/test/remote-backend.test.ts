import { rmSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { alpacaPrompt } from "@local-mcp/core/inference";
import { FakeOpenAi } from "@local-mcp/core/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { resourceText } from "./helpers/resource-text.js";
import { connectMochi, type ConnectedMochi } from "./helpers/tiny-model.js";

// MOCHI_BACKEND_URL: the model tools run on an OpenAI-compatible server — here core's loopback
// fake — through a real SDK client, with the prompts the local engine gets.

const API_KEY = "sk-mochi-test-key";
let fake: FakeOpenAi;
let repo: string;
const open: ConnectedMochi[] = [];

beforeAll(async () => {
  fake = await new FakeOpenAi().start();
  repo = copyFixtureRepo();
  await indexInto(repo);
});

afterEach(() => {
  fake.requests.length = 0;
  fake.script.length = 0;
});

afterAll(async () => {
  for (const mochi of open) await mochi.close();
  await fake.stop();
  rmSync(repo, { recursive: true, force: true });
});

async function serve(env: Record<string, string> = {}): Promise<ConnectedMochi> {
  const mochi = await connectMochi(
    { MOCHI_BACKEND_URL: fake.url, MOCHI_BACKEND_MODEL: "team-coder", MOCHI_BACKEND_API_KEY: API_KEY, ...env },
    repo,
  );
  open.push(mochi);
  return mochi;
}

async function call(mochi: ConnectedMochi, name: string, args: Record<string, unknown>) {
  const started = performance.now();
  const result = (await mochi.connection.client.callTool({ name, arguments: args })) as CallToolResult;
  return { result, body: result.structuredContent as Record<string, unknown>, ms: performance.now() - started };
}

function errorOf(result: CallToolResult): { code: string; message: string; suggestion: string; recoverable: boolean } {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: { code: string; message: string; suggestion: string; recoverable: boolean } }).error;
}

async function stats(mochi: ConnectedMochi): Promise<{ model: Record<string, unknown> }> {
  return JSON.parse(resourceText(await mochi.connection.client.readResource({ uri: "mochi://stats" }))) as {
    model: Record<string, unknown>;
  };
}

function completionAnswer(text: string) {
  return {
    status: 200,
    body: {
      choices: [{ text, finish_reason: "stop", logprobs: { token_logprobs: [Math.log(0.9), Math.log(0.8)] } }],
      usage: { prompt_tokens: 40, completion_tokens: 6 },
    },
  };
}

describe("MOCHI_BACKEND_URL: an OpenAI-compatible server runs the model", () => {
  it("complete_code continues the prefix on the server and says which backend and model answered", async () => {
    const mochi = await serve();
    fake.script.push(completionAnswer("a + b;\n}\n\nexport function other() {"));
    const prefix = "export function add(a: number, b: number): number {\n  return ";
    const { result, body } = await call(mochi, "complete_code", { prefix, suffix: "\n", response_level: "full" });
    expect(result.isError).toBeFalsy();
    expect(body).toMatchObject({ backend: "remote", model: "team-coder", mode: "prefix-completion" });
    expect(body.completion).toBe("a + b;");
    expect(body.adapter_note).toContain(fake.url);
    const request = fake.requests.find((r) => r.path === "/v1/completions");
    // The OpenAI API has no fill-in-the-middle: the prefix is the prompt, as core's RemoteBackend sends it.
    expect(request).toMatchObject({ method: "POST", authorization: `Bearer ${API_KEY}`, body: { model: "team-coder", prompt: prefix } });
    expect(JSON.stringify(result)).not.toContain(API_KEY);

    const model = (await stats(mochi)).model;
    expect(model).toMatchObject({ serving: "remote", base: null, adapters: [], fill_in_the_middle: false });
    expect(model.backend).toMatchObject({ url: fake.url, model: "team-coder", api_key: "[set]", check: { state: "reachable" } });
    expect(JSON.stringify(model)).not.toContain(API_KEY);
  });

  it("domain_query sends the Alpaca prompt the local engine gets, grounded in the catalog", async () => {
    const mochi = await serve();
    fake.script.push(completionAnswer("Errors are classes that extend AppError."));
    const { result, body } = await call(mochi, "domain_query", { instruction: "How are errors handled here?", response_level: "full" });
    expect(result.isError).toBeFalsy();
    expect(body).toMatchObject({ response: "Errors are classes that extend AppError.", backend: "remote", model: "team-coder" });
    expect((body.sources as string[]).length).toBeGreaterThan(0);
    expect(body.confidence).toBeGreaterThan(0.8);
    const request = fake.requests.find((r) => r.path === "/v1/completions");
    expect(request?.body?.prompt).toBe(alpacaPrompt("How are errors handled here?", body.prompt_input as string));
    // the Alpaca section stops, as the local engine stops
    expect(request?.body?.stop).toEqual(expect.arrayContaining(["\n### Instruction", "\n### Response"]));
    // minimal still says who answered
    fake.script.push(completionAnswer("Yes."));
    const minimal = await call(mochi, "domain_query", { instruction: "Is there a registry?", response_level: "minimal" });
    expect(minimal.body).toMatchObject({ backend: "remote", model: "team-coder" });
    expect(minimal.body.adapter_note).toBeUndefined();
  });

  it("suggest_pattern is re-ranked by the server's model under the JSON schema", async () => {
    const mochi = await serve();
    fake.script.push(completionAnswer(JSON.stringify({ ranking: ["custom-error-class"] })));
    const { body } = await call(mochi, "suggest_pattern", { goal: "errors callers can handle", limit: 2, response_level: "full" });
    expect(body).toMatchObject({ ranked_by: "embeddings+model", backend: "remote", model: "team-coder" });
    expect(fake.requests.find((r) => r.path === "/v1/completions")?.body).toHaveProperty("response_format");
  });

  it("a 500 from the server is UPSTREAM_ERROR naming the status, with a suggestion naming the variables; the next call works", async () => {
    const mochi = await serve();
    const failing = { status: 500, body: { error: { message: "model crashed" } } };
    fake.script.push(failing, failing, failing);
    const { result } = await call(mochi, "domain_query", { instruction: "What is this?" });
    const error = errorOf(result);
    expect(error.code).toBe("UPSTREAM_ERROR");
    expect(error.message).toContain("HTTP 500");
    expect(error.message).toContain("model crashed");
    expect(error.suggestion).toContain("MOCHI_BACKEND_URL");
    expect(error.suggestion).toContain("team-coder");
    // 5xx is retried (core's RemoteBackend: 3 attempts)
    expect(fake.requests.filter((r) => r.path === "/v1/completions")).toHaveLength(3);
    fake.script.push(completionAnswer("Fine again."));
    expect((await call(mochi, "domain_query", { instruction: "What is this?" })).body.response).toBe("Fine again.");
  });

  it("a server that does not answer in time is TIMEOUT at the deadline", async () => {
    const mochi = await serve({ MOCHI_DEADLINE_MS: "400" });
    fake.script.push({ ...completionAnswer("late"), delayMs: 3_000 });
    const { result, ms } = await call(mochi, "complete_code", { prefix: "const x = " });
    expect(errorOf(result).code).toBe("TIMEOUT");
    expect(ms).toBeLessThan(400 + 1_000);
  });

  it("a refused connection is UPSTREAM_ERROR naming it; catalog features and stats go on", async () => {
    const gone = await new FakeOpenAi().start();
    const url = gone.url;
    await gone.stop();
    const mochi = await serve({ MOCHI_BACKEND_URL: url });
    const { result } = await call(mochi, "complete_code", { prefix: "const x = " });
    const error = errorOf(result);
    expect(error.code).toBe("UPSTREAM_ERROR");
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.suggestion).toContain(url);
    const suggested = await call(mochi, "suggest_pattern", { goal: "custom error classes", response_level: "full" });
    expect(suggested.result.isError).toBeFalsy();
    expect(suggested.body.ranked_by).toBe("embeddings");
    expect(suggested.body.note).toContain("ECONNREFUSED");
    const model = (await stats(mochi)).model;
    expect(model.readiness).toEqual({ state: "ready" });
    expect(model.backend).toMatchObject({ check: { state: "unreachable", problem: expect.stringContaining("ECONNREFUSED") } });
  });
});
