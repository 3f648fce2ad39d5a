import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { silentLogger, type ToolError } from "../../src/index.js";
import { RemoteBackend } from "../../src/inference/remote-backend.js";
import { FakeOpenAi } from "../../src/testing/index.js";

const schema = {
  type: "object",
  properties: { name: { type: "string" }, count: { type: "integer" }, ok: { type: "boolean" } },
  required: ["name", "count", "ok"],
  additionalProperties: false,
};

describe("RemoteBackend against a loopback fake of the OpenAI API", () => {
  const fake = new FakeOpenAi();
  let backend: RemoteBackend;
  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.script.length = 0;
    backend = new RemoteBackend({ baseUrl: fake.url, model: "fake-model", apiKey: "sk-secret", backoffMs: 1 }, { logger: silentLogger });
  });

  it("checks readiness with GET /models", async () => {
    await backend.load();
    expect(backend.readiness.isReady).toBe(true);
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/v1/models", authorization: "Bearer sk-secret" });
  });

  it("a check that outlasts the signal given to load is NOT_READY, without waiting for the server", async () => {
    fake.script.push({ status: 200, body: { data: [] }, delayMs: 5_000 });
    const started = performance.now();
    await expect(backend.load({ signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ code: "NOT_READY" });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(backend.readiness.state.state).toBe("failed");
  });

  it("chats, reporting tokens and a confidence from logprobs", async () => {
    const result = await backend.generate({ prompt: { kind: "chat", messages: [{ role: "user", content: "hi" }] }, maxTokens: 5 });
    expect(result).toMatchObject({ text: "hello there", tokensIn: 12, tokensOut: 2, stopReason: "eos", mode: "chat" });
    expect(result.confidence).toBeCloseTo(0.5, 6);
    expect(result.confidenceKnown).toBeUndefined();
    expect(fake.requests[0]?.body).toMatchObject({
      model: "fake-model",
      max_tokens: 5,
      temperature: 0,
      messages: [{ role: "user", content: "hi" }],
    });
  });

  it("says when the server returned no token probabilities (confidence 0 then measures nothing)", async () => {
    fake.script.push({
      status: 200,
      body: { choices: [{ message: { content: "{}" }, finish_reason: "stop" }], usage: { completion_tokens: 1 } },
    });
    const result = await backend.json({
      prompt: { kind: "chat", messages: [{ role: "user", content: "hi" }] },
      schema: { type: "object" },
    });
    expect(result).toMatchObject({ value: {}, confidence: 0, confidenceKnown: false });
  });

  it("runs Alpaca prompts through /completions with the section stops", async () => {
    const result = await backend.generate({ prompt: { kind: "alpaca", instruction: "Name it", input: "x" } });
    expect(result).toMatchObject({ text: " world", mode: "alpaca", stopReason: "max_tokens" });
    expect(fake.requests[0]?.body?.prompt).toBe("### Instruction:\nName it\n\n### Input:\nx\n\n### Response:\n");
    expect(fake.requests[0]?.body?.stop).toContain("\n### Instruction");
  });

  it("says an infill is a prefix completion (the API has no FIM)", async () => {
    const result = await backend.generate({ prompt: { kind: "infill", prefix: "def f(", suffix: "):" } });
    expect(result.mode).toBe("prefix-completion");
  });

  it("checks JSON results against the schema and retries with the failure fed back", async () => {
    fake.script.push(
      { status: 200, body: { choices: [{ message: { content: '{"name":"a","count":6E999,"ok":true}' }, finish_reason: "stop" }] } },
      { status: 200, body: { choices: [{ message: { content: '{"name":"a","count":3,"ok":true}' }, finish_reason: "stop" }] } },
    );
    const result = await backend.json({ prompt: { kind: "chat", messages: [{ role: "user", content: "give" }] }, schema });
    expect(result.value).toEqual({ name: "a", count: 3, ok: true });
    expect(result.retries).toBe(1);
    expect(fake.requests[0]?.body?.response_format).toMatchObject({ type: "json_schema", json_schema: { schema } });
    const retryMessages = fake.requests[1]?.body?.messages as { content: string }[];
    expect(retryMessages.at(-1)?.content).toMatch(/not a finite number/);
  });

  it("gives UPSTREAM_ERROR with the last output when every attempt is invalid", async () => {
    for (let i = 0; i < 3; i++) fake.script.push({ status: 200, body: { choices: [{ message: { content: '{"name":1}' } }] } });
    await expect(
      backend.json({ prompt: { kind: "chat", messages: [{ role: "user", content: "x" }] }, schema, maxRetries: 2 }),
    ).rejects.toMatchObject({
      code: "UPSTREAM_ERROR",
      details: { lastOutput: '{"name":1}', attempts: 3 },
    });
  });

  it("retries 429 and 5xx, then succeeds", async () => {
    fake.script.push({ status: 429, body: { error: "slow down" } }, { status: 503, body: { error: "busy" } });
    const result = await backend.generate({ prompt: { kind: "completion", text: "hello" } });
    expect(result.text).toBe(" world");
    expect(fake.requests).toHaveLength(3);
  });

  it("does not retry a 400, and never puts the key in the error", async () => {
    fake.script.push({ status: 400, body: { error: "bad model" } });
    const error = await backend.generate({ prompt: { kind: "completion", text: "x" } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UPSTREAM_ERROR" });
    expect(String((error as Error).message)).toMatch(/HTTP 400/);
    expect(JSON.stringify(error)).not.toContain("sk-secret");
    expect(fake.requests).toHaveLength(1);
  });

  it("embeds with normalised vectors in input order", async () => {
    const vectors = await backend.embed(["ab", "abcd"]);
    expect(vectors).toHaveLength(2);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect(vectors[1]![0]! > vectors[0]![0]!).toBe(true);
  });

  it("times out at the deadline, aborting the request, and the next call succeeds", async () => {
    fake.script.push({ status: 200, body: {}, delayMs: 2_000 });
    const started = Date.now();
    await expect(backend.generate({ prompt: { kind: "completion", text: "x" }, deadlineMs: 80 })).rejects.toMatchObject({
      code: "TIMEOUT",
    });
    // Well before the fake's 2 s answer: the deadline, not the response, ended the call (a busy machine adds its own delay).
    expect(Date.now() - started).toBeLessThan(1_000);
    const next = await backend.generate({ prompt: { kind: "completion", text: "x" } });
    expect(next.text).toBe(" world");
  });

  it("an unreachable server is UPSTREAM_ERROR on calls and NOT_READY on load", async () => {
    const gone = new RemoteBackend(
      { baseUrl: "http://127.0.0.1:9/v1", model: "m", maxAttempts: 2, backoffMs: 1 },
      { logger: silentLogger },
    );
    const failure = await gone.generate({ prompt: { kind: "completion", text: "x" } }).catch((error: unknown) => error as ToolError);
    expect(failure).toMatchObject({ code: "UPSTREAM_ERROR" });
    // undici's "fetch failed" alone would not say why: the cause is named (port 9 is one fetch refuses to use).
    expect((failure as ToolError).message).toMatch(/network error: fetch failed \(bad port\)$/);
    await expect(gone.load()).rejects.toMatchObject({ code: "NOT_READY" });
    expect(gone.readiness.state.state).toBe("failed");
  });
});
