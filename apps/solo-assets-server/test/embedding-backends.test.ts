/**
 * Embedding backends beside the built-in one (issue 19): an OpenAI-compatible /v1/embeddings
 * server — core's FakeOpenAi on loopback, real HTTP, answering with vectors of core's
 * LocalEmbedder as a stand-in model — and a GGUF model through node-llama-cpp (core's tiny
 * generated llama). Each vector records its model; a model change is said in the search answer
 * until `solo-assets reindex` re-embeds; every answer says what ranked it.
 */
import { LocalEmbedder } from "@local-mcp/core/embeddings";
import { FakeOpenAi, writeTinyLlamaGguf } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSoloAssetsConfig } from "../src/config.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { callTool, connectSolo, runSoloCli, tempLibrary, testEnv, testServices } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const FUNCTIONS = [
  {
    name: "slugify",
    code: 'def slugify(text: str) -> str:\n    """Make a URL slug."""\n    return text\n',
    description: "Turn a title into a URL slug",
  },
  {
    name: "median",
    code: 'def median(xs: list[float]) -> float:\n    """The middle value."""\n    return xs[0]\n',
    description: "Median of a list of numbers",
  },
];

let fake: FakeOpenAi;
let library: TempLibrary;
const stand_in = new LocalEmbedder({ dimension: 64 });

beforeAll(async () => {
  fake = await new FakeOpenAi().start();
  const original = fake.fallback;
  fake.fallback = (path, body) => {
    if (path !== "/v1/embeddings") return original(path, body);
    const input = (body?.input as string[]) ?? [];
    // A different model name gives different vectors, as a real server would.
    const salt = body?.model === "fake-embed" ? "" : ` ${String(body?.model)}`;
    return { status: 200, body: { data: input.map((text, index) => ({ index, embedding: [...stand_in.embedOne(text + salt)] })) } };
  };
  library = tempLibrary();
});

afterAll(async () => {
  await fake?.stop();
  library?.remove();
});

const openAiEnv = (model = "fake-embed") => ({
  SOLO_EMBEDDER: "openai",
  SOLO_EMBEDDING_URL: fake.url,
  SOLO_EMBEDDING_MODEL: model,
  SOLO_EMBEDDING_API_KEY: "local-token",
});

describe("OpenAI-compatible embedding server", () => {
  it("embeds saves and queries over HTTP, records the model with each vector, and says what ranked the answer", async () => {
    const services = testServices(library.dbPath, openAiEnv());
    try {
      expect(services.settings.embedding).toMatchObject({ backend: "openai", model: "openai:fake-embed", url: fake.url });
      for (const fn of FUNCTIONS) await commitUnchecked(services, fn);
      expect((await services.library.counts()).embeddings).toEqual([{ model: "openai:fake-embed", dimension: 64, count: 2 }]);
      const calls = fake.requests.filter((r) => r.path === "/v1/embeddings");
      expect(calls.length).toBe(2);
      expect(calls[0]).toMatchObject({ method: "POST", authorization: "Bearer local-token", body: { model: "fake-embed" } });
    } finally {
      await services.dispose();
    }
    const connection = await connectSolo(library.dbPath, openAiEnv());
    try {
      const answer = await callTool(connection.client, "search_functions", { query: "URL slug from a title", response_level: "minimal" });
      expect(answer.isError).toBe(false);
      expect(answer.body).toMatchObject({ ranked_by: "openai:fake-embed vectors + keywords (reciprocal rank fusion)" });
      expect((answer.body.results as { name: string }[])[0]?.name).toBe("slugify");
    } finally {
      await connection.close();
    }
  });

  it("a changed model is said with a code until `solo-assets reindex` re-embeds every function", async () => {
    const connection = await connectSolo(library.dbPath, openAiEnv("fake-embed-2"));
    try {
      const before = await callTool(connection.client, "search_functions", { query: "median of numbers", response_level: "minimal" });
      expect(before.body.reindex).toMatchObject({ code: "EMBEDDING_MODEL_CHANGED", functions: 2 });
      expect(String((before.body.reindex as { suggestion: string }).suggestion)).toContain("solo-assets reindex");
    } finally {
      await connection.close();
    }
    const { code, stdout: out } = await runSoloCli(
      () => loadSoloAssetsConfig(testEnv(library.dbPath, openAiEnv("fake-embed-2")), process.cwd()),
      "reindex",
    );
    expect(code).toBe(0);
    expect(out).toContain("openai:fake-embed-2 (64): embedded 2, 0 already up to date");
    const after = await connectSolo(library.dbPath, openAiEnv("fake-embed-2"));
    try {
      const answer = await callTool(after.client, "search_functions", { query: "median of numbers", response_level: "minimal" });
      expect(answer.body.reindex).toBeUndefined();
      expect((answer.body.results as { name: string }[])[0]?.name).toBe("median");
    } finally {
      await after.close();
    }
  });

  it("a server that is down: the search falls back to keywords and says so", async () => {
    const services = testServices(library.dbPath, { ...openAiEnv(), SOLO_EMBEDDING_URL: "http://127.0.0.1:9/v1" });
    try {
      const outcome = await services.library.search({ query: "median of numbers", limit: 5 });
      expect(outcome.rankedBy).toBe("keywords only");
      expect(outcome.embedding.error).toMatch(/embedding server at http:\/\/127\.0\.0\.1:9\/v1 failed/);
      expect(outcome.hits[0]?.function.name).toBe("median");
    } finally {
      await services.dispose();
    }
  });
});

describe("GGUF embedding model", () => {
  it("embeds through node-llama-cpp (core's tiny generated model) and records gguf:<file>", async () => {
    const modelPath = (await writeTinyLlamaGguf(`${library.dir}/tiny-embed.gguf`, { contextLength: 2048 })).path;
    const services = testServices(library.dbPath, { SOLO_EMBEDDER: "gguf", SOLO_EMBEDDING_MODEL_PATH: modelPath });
    try {
      expect(services.settings.embedding).toMatchObject({ backend: "gguf", model: "gguf:tiny-embed.gguf", dimension: 0 });
      const reindexed = await services.library.reindex();
      expect(reindexed).toMatchObject({ model: "gguf:tiny-embed.gguf", embedded: 2 });
      expect(reindexed.dimension).toBeGreaterThan(0);
      const outcome = await services.library.search({ query: "median of numbers", limit: 5 });
      expect(outcome.rankedBy).toBe("gguf:tiny-embed.gguf vectors + keywords (reciprocal rank fusion)");
      expect(outcome.unembedded).toBe(0);
    } finally {
      await services.dispose();
    }
  });
});
