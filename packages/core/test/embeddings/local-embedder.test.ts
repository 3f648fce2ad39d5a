import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/errors.js";
import { LocalEmbedder, LOCAL_EMBEDDER_MAX_TEXT_CHARS, cosine, createEmbedder, isUnitVector, l2Norm } from "../../src/embeddings/index.js";
import { HELD_OUT_TRIPLES, PARAPHRASE_TRIPLES, SAME_TOPIC_TRIPLES } from "./ranking-triples.js";
import type { RankingTriple } from "./ranking-triples.js";

const embedder = new LocalEmbedder();
const embed = (texts: string[], task: "document" | "query" = "document") => embedder.embed(texts, { task });

/** A fingerprint of a vector that survives float formatting: entries rounded to 1e-5. */
function fingerprint(vector: Float32Array): string {
  const rounded = Array.from(vector, (value) => (Math.round(value * 1e5) / 1e5).toFixed(5));
  return createHash("sha256").update(rounded.join(",")).digest("hex").slice(0, 16);
}

describe("LocalEmbedder: identity and shape", () => {
  it("names its scheme version and dimension, and returns vectors of that dimension", async () => {
    expect(embedder.model).toBe("local-hash-v1-512");
    expect(embedder.dimension).toBe(512);
    const small = new LocalEmbedder({ dimension: 256 });
    expect(small.model).toBe("local-hash-v1-256");
    const [vector] = await small.embed(["hello world"], { task: "document" });
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector?.length).toBe(256);
  });

  it("is the default of createEmbedder", () => {
    expect(createEmbedder().model).toBe("local-hash-v1-512");
  });

  it("refuses a dimension that is not a sane integer", () => {
    expect(() => new LocalEmbedder({ dimension: 10.5 })).toThrow(ToolError);
    expect(() => new LocalEmbedder({ dimension: 4 })).toThrow(/dimension/);
  });

  it("returns an empty list for no texts", async () => {
    await expect(embed([])).resolves.toEqual([]);
  });
});

describe("LocalEmbedder: determinism and corpus independence", () => {
  it("gives identical vectors across instances, batches, positions and tasks", async () => {
    const text = "Parse a date string into a datetime";
    const [alone] = await embed([text]);
    const [, inBatch] = await new LocalEmbedder().embed(["something else entirely", text, "more"], { task: "document" });
    const [asQuery] = await embed([text], "query");
    expect(Array.from(inBatch!)).toEqual(Array.from(alone!));
    expect(Array.from(asQuery!)).toEqual(Array.from(alone!));
  });

  it("keeps version 1 vectors fixed (a change to the scheme must bump the version in the model name)", async () => {
    const [a, b] = await embed(["parse a date string into a datetime", "isValidEmail(address) 東京の天気 😀"]);
    // If this fails after an intended change, bump LOCAL_EMBEDDER_VERSION and update the prints.
    expect([fingerprint(a!), fingerprint(b!)]).toEqual(["de2373b670876046", "d1ccfc528467efa8"]);
  });
});

describe("LocalEmbedder: every vector has unit length", () => {
  const cases: [string, string][] = [
    ["a sentence", "The quick brown fox jumps over the lazy dog."],
    ["code", "def parse_date(s: str) -> datetime: return datetime.strptime(s, '%Y-%m-%d')"],
    ["the empty string", ""],
    ["whitespace", "   \n\t  "],
    ["punctuation only", "?!... ---- ;;"],
    ["stopwords only", "the of and to a in"],
    ["emoji only", "😀🎉🚀"],
    ["Japanese", "東京の明日の天気予報"],
    ["Arabic", "توقعات الطقس لمدينة القاهرة"],
    ["combining marks", "e\u0301le\u0300ve cafe\u0301"],
    ["a lone surrogate", "abc \ud800 def"],
    ["one long token", "x".repeat(10_000)],
  ];
  it.each(cases)("%s", async (_name, text) => {
    const [vector] = await embed([text]);
    expect(vector!.length).toBe(512);
    expect(vector!.every(Number.isFinite)).toBe(true);
    expect(isUnitVector(vector!, 1e-5)).toBe(true);
  });

  it("maps featureless texts to one fixed vector, dissimilar to real text", async () => {
    const [empty, blank, punctuation, sentence] = await embed(["", "  ", "?!", "read a json configuration file"]);
    expect(Array.from(blank!)).toEqual(Array.from(empty!));
    expect(Array.from(punctuation!)).toEqual(Array.from(empty!));
    expect(Math.abs(cosine(empty!, sentence!))).toBeLessThan(0.3);
  });
});

describe("LocalEmbedder: huge and unicode input", () => {
  it("reads only the first LOCAL_EMBEDDER_MAX_TEXT_CHARS characters of a huge text, quickly", async () => {
    const words = ["alpha", "parser", "network", "database", "image", "weather", "retry", "config"];
    let head = "";
    for (let i = 0; head.length < LOCAL_EMBEDDER_MAX_TEXT_CHARS; i++) head += `${words[i % words.length]}${i % 97} `;
    head = head.slice(0, LOCAL_EMBEDDER_MAX_TEXT_CHARS);
    const huge = head + " completely different tail about cooking pasta".repeat(100_000); // ~4.8 MB
    const started = performance.now();
    const [hugeVector, headVector] = await embed([huge, head]);
    const elapsedMs = performance.now() - started;
    expect(Array.from(hugeVector!)).toEqual(Array.from(headVector!));
    expect(isUnitVector(hugeVector!)).toBe(true);
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it("treats NFKC-equivalent forms alike (full-width letters, ligatures)", async () => {
    const [fullWidth, ascii, ligature, plain] = await embed(["ＰＡＲＳＥ ＦＩＬＥ", "parse file", "ﬁle ﬂow", "file flow"]);
    expect(cosine(fullWidth!, ascii!)).toBeGreaterThan(0.999);
    expect(cosine(ligature!, plain!)).toBeGreaterThan(0.999);
  });

  it("ranks texts in scripts without spaces and with accents by content", async () => {
    const triples: RankingTriple[] = [
      { query: "東京の天気予報", related: "明日の東京の天気", unrelated: "りんごケーキの作り方" },
      { query: "서울의 날씨 예보", related: "내일 서울 날씨", unrelated: "사과 케이크 만드는 법" },
      {
        query: "prévisions météo pour Paris demain",
        related: "la météo de demain à Paris",
        unrelated: "recette de gâteau aux pommes",
      },
      { query: "Wettervorhersage für Berlin", related: "das Wetter morgen in Berlin", unrelated: "Rezept für Apfelkuchen" },
    ];
    for (const triple of triples) {
      const [q, r, u] = await embed([triple.query, triple.related, triple.unrelated]);
      expect(cosine(q!, r!), triple.query).toBeGreaterThan(cosine(q!, u!));
    }
  });
});

describe("LocalEmbedder: identifiers", () => {
  it("splits camelCase, PascalCase, snake_case and kebab-case into words", async () => {
    const [camel, snake, kebab, pascal, words, other] = await embed([
      "parseDateString",
      "parse_date_string",
      "parse-date-string",
      "ParseDateString",
      "parse date string",
      "computeFileHash",
    ]);
    for (const identifier of [camel, snake, kebab, pascal]) {
      expect(cosine(identifier!, words!)).toBeGreaterThan(0.8);
      expect(cosine(identifier!, words!)).toBeGreaterThan(cosine(identifier!, other!) + 0.5);
    }
  });

  it("meets the inflected forms of a word on one stem", async () => {
    const [a, b, c] = await embed(["parsing dates", "parsed date", "hashes"]);
    expect(cosine(a!, b!)).toBeGreaterThan(0.8);
    expect(cosine(a!, c!)).toBeLessThan(0.2);
  });
});

describe("LocalEmbedder: ranking", () => {
  const check = async (triple: RankingTriple) => {
    const [query, related, unrelated] = await embed([triple.query, triple.related, triple.unrelated]);
    const relatedScore = cosine(query!, related!);
    const unrelatedScore = cosine(query!, unrelated!);
    expect(relatedScore, `"${triple.related}" vs "${triple.unrelated}"`).toBeGreaterThan(unrelatedScore + 0.03);
  };

  it.each(PARAPHRASE_TRIPLES.map((t) => [t.query, t] as const))("paraphrase above unrelated: %s", async (_q, t) => {
    await check(t);
  });

  it.each(SAME_TOPIC_TRIPLES.map((t) => [t.query, t] as const))("same topic above unrelated: %s", async (_q, t) => {
    await check(t);
  });

  it.each(HELD_OUT_TRIPLES.map((t) => [t.query, t] as const))("held out: %s", async (_q, t) => {
    await check(t);
  });

  it("finds each held-out query's own related text first among all candidate texts", async () => {
    const candidates = HELD_OUT_TRIPLES.flatMap((t) => [t.related, t.unrelated]);
    const candidateVectors = await embed(candidates, "document");
    const queryVectors = await embed(
      HELD_OUT_TRIPLES.map((t) => t.query),
      "query",
    );
    queryVectors.forEach((query, i) => {
      const scores = candidateVectors.map((candidate) => cosine(query, candidate));
      const best = scores.indexOf(Math.max(...scores));
      expect(candidates[best], HELD_OUT_TRIPLES[i]!.query).toBe(HELD_OUT_TRIPLES[i]!.related);
    });
  });
});

describe("LocalEmbedder: arguments and cancellation", () => {
  it("rejects bad arguments with INVALID_INPUT", async () => {
    await expect(embedder.embed("text" as unknown as string[], { task: "document" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await expect(embedder.embed(["ok", 3 as unknown as string], { task: "document" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("texts[1]"),
    });
    await expect(embedder.embed(["ok"], { task: "search" as "query" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
  });

  it("does no work when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(["x"], { task: "document", signal: controller.signal })).rejects.toMatchObject({
      code: "TIMEOUT",
      details: { cancelled: true },
    });
  });

  it("stops a long batch when the signal aborts mid-way, with the deadline's own error", async () => {
    const controller = new AbortController();
    const texts = Array.from({ length: 5_000 }, (_, i) => `document number ${i} about parsing things`);
    const running = embedder.embed(texts, { task: "document", signal: controller.signal });
    const deadline = new ToolError("TIMEOUT", "Embedding did not finish within 10 ms and was stopped.");
    controller.abort(deadline); // the first slice has run synchronously; the rest must not
    await expect(running).rejects.toBe(deadline);
  });

  it("keeps vectors comparable: l2Norm of every vector is 1 within float32 precision", async () => {
    const vectors = await embed(PARAPHRASE_TRIPLES.flatMap((t) => [t.query, t.related, t.unrelated]));
    for (const vector of vectors) expect(Math.abs(l2Norm(vector) - 1)).toBeLessThan(1e-6);
  });
});
