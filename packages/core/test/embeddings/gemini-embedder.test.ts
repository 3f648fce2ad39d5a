import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "../../src/errors.js";
import { createLogger } from "../../src/logger.js";
import { GeminiEmbedder, createEmbedder, geminiApiKeyFromEnv, isUnitVector, l2Normalise } from "../../src/embeddings/index.js";
import type { GeminiEmbedderOptions } from "../../src/embeddings/index.js";
import { fakeEmbeddingValues, startFakeGemini } from "../../src/testing/index.js";
import type { FakeGemini } from "../../src/testing/index.js";

// Not shaped like a Google key, so only our own redaction can keep it out of messages.
const API_KEY = "test-key-7f3a9c-do-not-leak";

let fake: FakeGemini;
beforeAll(async () => {
  fake = await startFakeGemini({ apiKey: API_KEY });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

function gemini(options: Partial<GeminiEmbedderOptions> = {}): GeminiEmbedder {
  return new GeminiEmbedder({
    apiKey: API_KEY,
    baseUrl: fake.baseUrl,
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

function captureLogs() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ name: "test", level: "debug", write: (line) => lines.push(line) }) };
}

/** The vector the fake serves for `text`, normalised as the embedder must return it. */
function expectVectorsFor(texts: readonly string[], vectors: Float32Array[], dimension: number): void {
  expect(vectors).toHaveLength(texts.length);
  texts.forEach((text, i) => {
    const expected = l2Normalise(fakeEmbeddingValues(text, dimension));
    const actual = vectors[i]!;
    expect(actual.length).toBe(dimension);
    let worst = 0;
    for (let j = 0; j < dimension; j++) worst = Math.max(worst, Math.abs(actual[j]! - expected[j]!));
    expect(worst, `vector ${i} (${text})`).toBeLessThan(1e-6);
  });
}

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return error as ToolError;
  }
  throw new Error("expected a rejection");
}

describe("GeminiEmbedder against the fake Gemini REST API (real @google/genai client)", () => {
  it("uses /v1beta by default: batchEmbedContents, the key header, the model, normalised vectors in order", async () => {
    const embedder = gemini();
    expect(embedder.model).toBe("gemini-embedding-001");
    expect(embedder.dimension).toBe(768);
    const texts = ["parse a date string", "compute an md5 hash", "ünïcödé 東京 😀"];
    const vectors = await embedder.embed(texts, { task: "document" });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1beta/models/gemini-embedding-001:batchEmbedContents",
      action: "batchEmbedContents",
      apiKey: API_KEY,
      texts,
    });
    expect(request!.entryModels).toEqual(texts.map(() => "models/gemini-embedding-001"));
    expectVectorsFor(texts, vectors, 768);
    for (const vector of vectors) expect(isUnitVector(vector, 1e-5)).toBe(true);
  });

  it("uses /v1 when apiVersion is pinned to v1", async () => {
    const embedder = gemini({ apiVersion: "v1" });
    const vectors = await embedder.embed(["hello"], { task: "query" });
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/models/gemini-embedding-001:batchEmbedContents"]);
    expectVectorsFor(["hello"], vectors, 768);
  });

  it("sends the task type and outputDimensionality with every text, and a configured model", async () => {
    const embedder = gemini({ model: "text-embedding-004", outputDimensionality: 256 });
    const queries = await embedder.embed(["where is the config loaded", "how are dates parsed"], { task: "query" });
    await embedder.embed(["def load_config(): ..."], { task: "document" });

    const [queryRequest, documentRequest] = fake.requests;
    expect(queryRequest!.path).toBe("/v1beta/models/text-embedding-004:batchEmbedContents");
    expect(queryRequest!.taskTypes).toEqual(["RETRIEVAL_QUERY", "RETRIEVAL_QUERY"]);
    expect(queryRequest!.outputDimensionalities).toEqual([256, 256]);
    expect(documentRequest!.taskTypes).toEqual(["RETRIEVAL_DOCUMENT"]);
    expect(documentRequest!.outputDimensionalities).toEqual([256]);
    expectVectorsFor(["where is the config loaded", "how are dates parsed"], queries, 256);
  });

  it("normalises Gemini's full 3072-dimension output and small ones alike", async () => {
    for (const outputDimensionality of [3072, 128]) {
      const vectors = await gemini({ outputDimensionality }).embed(["a", "b c"], { task: "document" });
      for (const vector of vectors) {
        expect(vector.length).toBe(outputDimensionality);
        expect(isUnitVector(vector, 1e-5)).toBe(true);
      }
    }
  });

  it("splits more than 100 texts into batches of at most 100 and keeps their order", async () => {
    const texts = Array.from({ length: 250 }, (_, i) => `text number ${i}`);
    const vectors = await gemini({ concurrency: 1 }).embed(texts, { task: "document" });
    expect(fake.requests.map((r) => r.texts.length)).toEqual([100, 100, 50]);
    expect(fake.requests.flatMap((r) => r.texts)).toEqual(texts);
    expectVectorsFor(texts, vectors, 768);
  });

  it("runs batches concurrently and still returns vectors in input order when answers come back reversed", async () => {
    // The fake answers nothing until 3 requests wait, then answers newest first: this only
    // completes if 3 batches are in flight together.
    fake.holdUntilInFlight(3);
    const texts = Array.from({ length: 120 }, (_, i) => `item ${i}`);
    const vectors = await gemini({ batchSize: 40, concurrency: 3 }).embed(texts, { task: "query" });
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.every((r) => r.texts.length === 40)).toBe(true);
    expectVectorsFor(texts, vectors, 768);
  });

  it("retries a 429 and succeeds, logging the retry without the key", async () => {
    fake.failNext({ status: 429, message: `Quota exceeded for key ${API_KEY}.`, retryDelay: "0.002s" });
    const { lines, logger } = captureLogs();
    const vectors = await gemini({ logger }).embed(["first", "second"], { task: "document" });
    expectVectorsFor(["first", "second"], vectors, 768);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.texts).toEqual(fake.requests[0]!.texts);
    expect(lines.join("")).toMatch(/retrying.*"httpStatus":429/);
    expect(lines.join("")).not.toContain(API_KEY);
  });

  it("retries 5xx a bounded number of times, then gives a recoverable UPSTREAM_ERROR", async () => {
    fake.failAlways({ status: 500, message: "Internal error encountered." });
    const error = await rejection(gemini({ retry: { attempts: 3, initialDelayMs: 1, maxDelayMs: 2 } }).embed(["x"], { task: "document" }));
    expect(error.code).toBe("UPSTREAM_ERROR");
    expect(error.recoverable).toBe(true);
    expect(error.message).toBe("Gemini embedding request failed after 3 attempts (HTTP 500 INTERNAL): Internal error encountered.");
    expect(error.details).toMatchObject({ httpStatus: 500, attempts: 3 });
    expect(fake.requests).toHaveLength(3);
  });

  it("does not retry a 400: UPSTREAM_ERROR with Gemini's message and never the key", async () => {
    fake.failNext({ status: 400, message: `Request contains an invalid argument (key ${API_KEY}).` });
    const error = await rejection(gemini().embed(["x"], { task: "document" }));
    expect(error.code).toBe("UPSTREAM_ERROR");
    expect(error.status).toBe(502);
    expect(error.recoverable).toBe(false);
    expect(error.message).toMatch(/^Gemini embedding request failed \(HTTP 400 INVALID_ARGUMENT\): Request contains an invalid argument/);
    expect(error.message).toContain("[redacted]");
    expect(JSON.stringify(error.toBody())).not.toContain(API_KEY);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports a rejected API key with a suggestion, without repeating the key", async () => {
    const wrongKey = "wrong-key-123456";
    const error = await rejection(gemini({ apiKey: wrongKey }).embed(["x"], { task: "document" }));
    expect(error.code).toBe("UPSTREAM_ERROR");
    expect(error.message).toContain("API key not valid");
    expect(error.suggestion).toMatch(/GOOGLE_API_KEY or GEMINI_API_KEY/);
    expect(JSON.stringify(error.toBody())).not.toContain(wrongKey);
    expect(fake.requests.map((r) => r.apiKey)).toEqual([wrongKey]); // sent once, in the header, not retried
  });

  it("stops retrying when the signal aborts during the backoff wait", async () => {
    fake.failAlways({ status: 503 });
    const controller = new AbortController();
    // Abort exactly when the embedder announces its first retry (a 10-minute backoff).
    const logger = createLogger({
      name: "test",
      level: "warn",
      write: (line) => {
        if (line.includes("retrying")) controller.abort();
      },
    });
    const embedder = gemini({ logger, retry: { attempts: 5, initialDelayMs: 600_000, maxDelayMs: 600_000 } });
    const error = await rejection(embedder.embed(["x"], { task: "document", signal: controller.signal }));
    expect(error).toMatchObject({ code: "TIMEOUT", details: { cancelled: true } });
    expect(fake.requests).toHaveLength(1);
  });

  it("aborts a request in flight with the signal's ToolError reason, and does not retry it", async () => {
    fake.hang();
    const controller = new AbortController();
    const running = gemini().embed(["x"], { task: "document", signal: controller.signal });
    await fake.nextRequest();
    const deadline = new ToolError("TIMEOUT", "Search did not finish within 50 ms and was stopped.");
    controller.abort(deadline);
    await expect(running).rejects.toBe(deadline);
    expect(fake.requests).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(gemini().embed(["x"], { task: "document", signal: controller.signal }));
    expect(error.code).toBe("TIMEOUT");
    expect(fake.requests).toHaveLength(0);
  });

  it("gives up on a request that never answers after the per-request timeout and its retries", async () => {
    fake.hang();
    const embedder = gemini({ requestTimeoutMs: 150, retry: { attempts: 2, initialDelayMs: 1, maxDelayMs: 2 } });
    const error = await rejection(embedder.embed(["x"], { task: "document" }));
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toBe("Gemini did not answer an embedding request within 150 ms (2 attempts).");
    expect(fake.requests).toHaveLength(2);
  });

  it("retries when the server cannot be reached, then says so", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { lines, logger } = captureLogs();
    const embedder = gemini({ baseUrl: `http://127.0.0.1:${port}`, logger, retry: { attempts: 2, initialDelayMs: 1, maxDelayMs: 2 } });
    const error = await rejection(embedder.embed(["x"], { task: "document" }));
    expect(error.code).toBe("UPSTREAM_ERROR");
    expect(error.message).toMatch(/after 2 attempts \(no HTTP answer\): fetch failed \(ECONNREFUSED\)/);
    expect(lines.filter((line) => line.includes("retrying"))).toHaveLength(1);
  });

  it("refuses malformed answers with UPSTREAM_ERROR", async () => {
    const embedder = gemini({ outputDimensionality: 4 });
    fake.answerNextWith({ embeddings: [{ values: [1, 2, 3, 4] }] });
    expect((await rejection(embedder.embed(["a", "b"], { task: "document" }))).message).toBe("Gemini returned 1 embeddings for 2 texts.");
    fake.answerNextWith({ embeddings: [{ values: [1, 2, 3] }] });
    expect((await rejection(embedder.embed(["a"], { task: "document" }))).message).toMatch(/expected 4 finite numbers, got 3 values/);
    fake.answerNextWith({ embeddings: [{ values: [0, 0, 0, 0] }] });
    const zero = await rejection(embedder.embed(["a"], { task: "document" }));
    expect(zero).toMatchObject({ code: "UPSTREAM_ERROR", message: "Gemini returned a zero vector for text 0." });
    fake.answerNextWithRaw("<html>proxy error</html>");
    const notJson = await rejection(embedder.embed(["a"], { task: "document" }));
    expect(notJson).toMatchObject({ code: "UPSTREAM_ERROR", recoverable: false });
    expect(notJson.message).toMatch(/^Gemini answered with a body that is not JSON/);
    expect(fake.requests).toHaveLength(4); // none of the four was retried
  });

  it("checks its input before sending anything", async () => {
    const embedder = gemini();
    await expect(embedder.embed([], { task: "document" })).resolves.toEqual([]);
    const blank = await rejection(embedder.embed(["fine", "  "], { task: "document" }));
    expect(blank).toMatchObject({ code: "INVALID_INPUT", details: { index: 1 } });
    const task = await rejection(embedder.embed(["x"], { task: "classify" as "query" }));
    expect(task.code).toBe("INVALID_INPUT");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("GeminiEmbedder configuration", () => {
  it("needs an API key (NOT_READY names the variables)", () => {
    expect(() => new GeminiEmbedder({ apiKey: "  " })).toThrow(
      expect.objectContaining({ code: "NOT_READY", suggestion: expect.stringContaining("GOOGLE_API_KEY") }),
    );
  });

  it("rejects impossible options with INVALID_INPUT", () => {
    const bad: Partial<GeminiEmbedderOptions>[] = [
      { batchSize: 101 },
      { batchSize: 0 },
      { outputDimensionality: 0 },
      { outputDimensionality: 4096 },
      { concurrency: 0 },
      { apiVersion: "v2" as "v1" },
      { baseUrl: "not a url" },
      { baseUrl: "file:///etc/passwd" },
      { model: "../other?x=1" },
      { retry: { attempts: 0 } },
    ];
    for (const options of bad) {
      expect(() => new GeminiEmbedder({ apiKey: API_KEY, ...options }), JSON.stringify(options)).toThrow(
        expect.objectContaining({ code: "INVALID_INPUT" }),
      );
    }
  });

  it("is what createEmbedder builds for the gemini backend", () => {
    const embedder = createEmbedder({ backend: "gemini", apiKey: API_KEY, outputDimensionality: 256 });
    expect(embedder).toBeInstanceOf(GeminiEmbedder);
    expect(embedder.dimension).toBe(256);
  });

  it("does not expose the key on the instance", () => {
    const embedder = gemini();
    expect(JSON.stringify(embedder)).not.toContain(API_KEY);
    expect(Object.values(embedder).join(" ")).not.toContain(API_KEY);
  });
});

describe("geminiApiKeyFromEnv", () => {
  it("reads GOOGLE_API_KEY first, then GEMINI_API_KEY, ignoring blanks", () => {
    expect(geminiApiKeyFromEnv({ GOOGLE_API_KEY: "g", GEMINI_API_KEY: "m" })).toBe("g");
    expect(geminiApiKeyFromEnv({ GEMINI_API_KEY: " m " })).toBe("m");
    expect(geminiApiKeyFromEnv({ GOOGLE_API_KEY: "  ", GEMINI_API_KEY: "m" })).toBe("m");
    expect(geminiApiKeyFromEnv({})).toBeUndefined();
  });
});
