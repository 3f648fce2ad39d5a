import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback fake of the Gemini REST embedding API for tests with the real `@google/genai`
 * client. It serves `models/{model}:batchEmbedContents` and `models/{model}:embedContent` under
 * both `/v1beta/` and `/v1/`, checks the `x-goog-api-key` header, records every request, and
 * answers with deterministic, deliberately un-normalised vectors (see `fakeEmbeddingValues`).
 * It can be told to fail the next requests (429 with RetryInfo, 500, 400...), to hold answers
 * until several requests are in flight (then answer them in reverse order), or to hold them
 * forever (timeouts, aborts).
 */

export interface FakeGeminiRequest {
  method: string;
  path: string;
  apiVersion: string;
  model: string;
  action: "batchEmbedContents" | "embedContent";
  /** The x-goog-api-key header as received. */
  apiKey: string | undefined;
  body: unknown;
  /** The texts of the request, in order. */
  texts: string[];
  taskTypes: (string | undefined)[];
  outputDimensionalities: (number | undefined)[];
  /** `models/...` named inside each entry of a batch request. */
  entryModels: (string | undefined)[];
}

export interface ScriptedFailure {
  status: number;
  /** Google's status name in the body; derived from `status` when omitted. */
  statusName?: string;
  message?: string;
  /** Adds a google.rpc.RetryInfo detail, e.g. "0.01s". */
  retryDelay?: string;
}

export interface FakeGemini {
  /** Give this to the client as `httpOptions.baseUrl`. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly requests: FakeGeminiRequest[];
  /** The next `times` embedding requests fail with this answer. */
  failNext(failure: ScriptedFailure, times?: number): void;
  /** Every embedding request fails with this answer until `reset`. */
  failAlways(failure: ScriptedFailure): void;
  /** The next successful answer has this body instead of the computed one. */
  answerNextWith(body: unknown): void;
  /** The next successful answer is this raw text, sent as application/json. */
  answerNextWithRaw(text: string): void;
  /** Holds answers until `count` requests wait, then answers them newest first. */
  holdUntilInFlight(count: number): void;
  /** Never answers embedding requests (until `reset` or `close`). */
  hang(): void;
  /** Resolves with the next embedding request as soon as it has been read. */
  nextRequest(): Promise<FakeGeminiRequest>;
  reset(): void;
  close(): Promise<void>;
}

/** Deterministic "embedding" of a text: values in (-2.5, 2.5), not unit length. */
export function fakeEmbeddingValues(text: string, dimension: number): number[] {
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
  const values: number[] = [];
  for (let i = 0; i < dimension; i++) {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    values.push(Math.round((unit * 5 - 2.5) * 1e6) / 1e6);
  }
  return values;
}

/** Gemini's default output size when no outputDimensionality is asked for. */
const DEFAULT_DIMENSION = 3072;
const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};
const ROUTE = /^\/(v1beta|v1)\/models\/([^/:]+):(batchEmbedContents|embedContent)$/;

interface Entry {
  content?: { parts?: { text?: unknown }[] };
  taskType?: unknown;
  outputDimensionality?: unknown;
  model?: unknown;
}

function entryText(entry: Entry): string {
  return (entry.content?.parts ?? []).map((part) => (typeof part.text === "string" ? part.text : "")).join("");
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(payload) });
  response.end(payload);
}

function errorBody(failure: ScriptedFailure): unknown {
  return {
    error: {
      code: failure.status,
      message: failure.message ?? `Scripted failure ${failure.status}.`,
      status: failure.statusName ?? STATUS_NAMES[failure.status] ?? "UNKNOWN",
      ...(failure.retryDelay === undefined
        ? {}
        : { details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: failure.retryDelay }] }),
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeGemini(options: { apiKey: string }): Promise<FakeGemini> {
  const requests: FakeGeminiRequest[] = [];
  let failures: ScriptedFailure[] = [];
  let sticky: ScriptedFailure | undefined;
  let nextBody: unknown;
  let nextRaw: string | undefined;
  let holdCount = 0;
  let hanging = false;
  let held: (() => void)[] = [];
  let waiters: ((request: FakeGeminiRequest) => void)[] = [];
  const open = new Set<ServerResponse>();

  const answer = (record: FakeGeminiRequest, response: ServerResponse) => {
    const failure = failures.shift() ?? sticky;
    if (failure) {
      sendJson(response, failure.status, errorBody(failure));
      return;
    }
    if (nextRaw !== undefined) {
      response.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
      response.end(nextRaw);
      nextRaw = undefined;
      return;
    }
    if (nextBody !== undefined) {
      const body = nextBody;
      nextBody = undefined;
      sendJson(response, 200, body);
      return;
    }
    const vectors = record.texts.map((text, i) => fakeEmbeddingValues(text, record.outputDimensionalities[i] ?? DEFAULT_DIMENSION));
    if (record.action === "embedContent") sendJson(response, 200, { embedding: { values: vectors[0] } });
    else sendJson(response, 200, { embeddings: vectors.map((values) => ({ values })) });
  };

  const server = createServer((request, response) => {
    open.add(response);
    response.on("close", () => open.delete(response));
    void (async () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      const route = ROUTE.exec(url.pathname);
      const raw = await readBody(request);
      if (request.method !== "POST" || route === null) {
        sendJson(response, 404, errorBody({ status: 404, message: `No route for ${request.method} ${url.pathname}.` }));
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        sendJson(response, 400, errorBody({ status: 400, message: "Invalid JSON payload." }));
        return;
      }
      const apiKey = request.headers["x-goog-api-key"];
      const receivedKey = Array.isArray(apiKey) ? apiKey.join(",") : apiKey;
      const action = route[3] as FakeGeminiRequest["action"];
      const entries: Entry[] = action === "batchEmbedContents" ? ((body as { requests?: Entry[] }).requests ?? []) : [body as Entry];
      const record: FakeGeminiRequest = {
        method: request.method,
        path: url.pathname,
        apiVersion: route[1] as string,
        model: route[2] as string,
        action,
        apiKey: receivedKey,
        body,
        texts: entries.map(entryText),
        taskTypes: entries.map((entry) => (typeof entry.taskType === "string" ? entry.taskType : undefined)),
        outputDimensionalities: entries.map((entry) =>
          typeof entry.outputDimensionality === "number" ? entry.outputDimensionality : undefined,
        ),
        entryModels: entries.map((entry) => (typeof entry.model === "string" ? entry.model : undefined)),
      };
      requests.push(record);
      const toWake = waiters;
      waiters = [];
      for (const wake of toWake) wake(record);
      if (receivedKey !== options.apiKey) {
        // Like the real API: 400 INVALID_ARGUMENT. Echoes the key it got, so tests can check
        // that the client never repeats a key from an error body.
        sendJson(
          response,
          400,
          errorBody({ status: 400, message: `API key not valid. Please pass a valid API key. (got ${receivedKey})` }),
        );
        return;
      }
      if (hanging) return;
      if (holdCount > 0) {
        held.push(() => answer(record, response));
        if (held.length >= holdCount) {
          const release = held.reverse();
          held = [];
          holdCount = 0;
          for (const send of release) send();
        }
        return;
      }
      answer(record, response);
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, errorBody({ status: 500, message: String(error) }));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: options.apiKey,
    requests,
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    failAlways(failure) {
      sticky = failure;
    },
    answerNextWith(body) {
      nextBody = body;
    },
    answerNextWithRaw(text) {
      nextRaw = text;
    },
    holdUntilInFlight(count) {
      holdCount = count;
    },
    hang() {
      hanging = true;
    },
    nextRequest() {
      return new Promise((resolve) => waiters.push(resolve));
    },
    reset() {
      requests.length = 0;
      failures = [];
      sticky = undefined;
      nextBody = undefined;
      nextRaw = undefined;
      holdCount = 0;
      hanging = false;
      held = [];
      for (const response of open) response.destroy();
    },
    async close() {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
