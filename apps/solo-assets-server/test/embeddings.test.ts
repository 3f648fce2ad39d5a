/**
 * Embeddings: the built-in local embedder by default, Gemini (the real @google/genai client
 * against core's loopback fake) when a key is set, and re-embedding when the model changes —
 * through the library and the `solo-assets reindex` command.
 */
import { startFakeGemini } from "@local-mcp/core/testing";
import type { FakeGemini } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSoloAssetsConfig } from "../src/config.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { runSoloCli, tempLibrary, testEnv, testServices } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const KEY = "test-key-embeddings-42";
let fake: FakeGemini;
let library: TempLibrary;

const FUNCTIONS = [
  {
    name: "parse_iso_date",
    code: 'def parse_iso_date(text: str) -> str:\n    """Parse an ISO-8601 date."""\n    return text\n',
    description: "Parse an ISO 8601 date string",
  },
  {
    name: "count_words",
    code: 'def count_words(text: str) -> int:\n    """Count words."""\n    return len(text.split())\n',
    description: "Count the words in a text",
  },
];

beforeAll(async () => {
  fake = await startFakeGemini({ apiKey: KEY });
  library = tempLibrary();
});
afterAll(async () => {
  await fake?.close();
  library?.remove();
});

const geminiEnv = () => ({ GOOGLE_API_KEY: KEY, SOLO_EMBEDDER: undefined, SOLO_GEMINI_BASE_URL: fake.baseUrl });

describe("embeddings", () => {
  it("uses the built-in local embedder when no key is set", async () => {
    const services = testServices(library.dbPath, { SOLO_EMBEDDER: undefined });
    try {
      expect(services.settings.embedding.backend).toBe("local");
      for (const fn of FUNCTIONS) await commitUnchecked(services, fn);
      const counts = await services.library.counts();
      expect(counts.embeddings).toEqual([{ model: services.embedder.model, dimension: 512, count: 2 }]);
    } finally {
      await services.dispose();
    }
  });

  it("switches to Gemini when a key is set; search falls back to keywords until reindex", async () => {
    const services = testServices(library.dbPath, geminiEnv());
    try {
      expect(services.settings.embedding).toMatchObject({ backend: "gemini", model: "gemini-embedding-001", dimension: 768 });
      const before = await services.library.search({ query: "count the words", limit: 5 });
      expect(before.unembedded).toBe(2);
      expect(before.hits[0]?.function.name).toBe("count_words");
      expect(before.hits[0]?.vectorRank).toBeUndefined();
      expect(fake.requests.at(-1)?.taskTypes).toEqual(["RETRIEVAL_QUERY"]);
    } finally {
      await services.dispose();
    }
  });

  it("`solo-assets reindex` re-embeds with the new model and keeps the old vectors", async () => {
    const { code, stdout: out } = await runSoloCli(
      () => loadSoloAssetsConfig(testEnv(library.dbPath, geminiEnv()), process.cwd()),
      "reindex",
    );
    expect(code).toBe(0);
    expect(out).toContain("gemini-embedding-001 (768): embedded 2, 0 already up to date");
    expect(fake.requests.at(-1)?.taskTypes).toEqual(["RETRIEVAL_DOCUMENT", "RETRIEVAL_DOCUMENT"]);
    expect(fake.requests.at(-1)?.apiKey).toBe(KEY);

    const services = testServices(library.dbPath, geminiEnv());
    try {
      const after = await services.library.search({ query: "parse a date", limit: 5 });
      expect(after.unembedded).toBe(0);
      expect(after.hits.every((hit) => hit.similarity !== undefined)).toBe(true);
      const counts = await services.library.counts();
      expect(counts.embeddings.map((e) => `${e.model}/${e.dimension}:${e.count}`).sort()).toEqual([
        "gemini-embedding-001/768:2",
        "solo-builtin-v2-512/512:2",
      ]);
      // A second reindex has nothing to do.
      expect((await services.library.reindex()).embedded).toBe(0);
    } finally {
      await services.dispose();
    }
  });
});
