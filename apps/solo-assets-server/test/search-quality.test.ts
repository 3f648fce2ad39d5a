/**
 * Search quality: recall@5 of the fused (vector + keyword) search with the built-in embedder, on
 * two labelled sets — the project's 60 paraphrased queries (search-corpus.ts) and 44 more from
 * other domains written for issue 19 (search-corpus-holdout.ts) — two blind sets written after
 * the built-in embedder was frozen (search-corpus-blind.ts, search-corpus-blind2.ts), and the minimum relevance:
 * a query on a topic the library lacks returns nothing. Prints the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SoloServices } from "../src/services.js";
import { SEARCH_CORPUS, corpusCode } from "./fixtures/search-corpus.js";
import type { CorpusFunction } from "./fixtures/search-corpus.js";
import { BLIND_CORPUS } from "./fixtures/search-corpus-blind.js";
import { BLIND2_CORPUS } from "./fixtures/search-corpus-blind2.js";
import { HOLDOUT_CORPUS } from "./fixtures/search-corpus-holdout.js";
import { FunctionLibrary } from "../src/domain/library/function-library.js";
import type { QualityGate } from "../src/domain/gate/quality-gate.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { tempLibrary, testServices } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

/**
 * Floors. The project's set: issue 19 asks ≥ 0.9 (0.817 with core's local-hash-v1 alone; 0.950
 * measured with solo-builtin-v2). The second set: 0.977 measured (43/44; 0.795 with local-hash-v1
 * alone); the floor leaves room for one more miss than measured before it is a regression.
 */
const PROJECT_SET_FLOOR = 0.9;
const SECOND_SET_FLOOR = 0.93;
/**
 * The blind set (search-corpus-blind.ts), written after the thesaurus was frozen: 0.500 (12/24)
 * measured, 0.667 without the minimum relevance — as core's local-hash-v1 gives without it: the
 * thesaurus did not carry over to these requests. The floor is the measurement, less one miss.
 */
const BLIND_SET_FLOOR = 0.45;
/**
 * The fourth set (search-corpus-blind2.ts): 48 functions written by someone who had not seen the
 * embedder, used once to judge the variants measured for issue 19 and never to change one:
 * 0.688 (33/48) measured. The floor is the measurement, less one miss.
 */
const BLIND2_SET_FLOOR = 0.66;

interface Measured {
  recall5: number;
  line: string;
}

const libraries: { library: TempLibrary; services: SoloServices }[] = [];

async function libraryOf(functions: readonly CorpusFunction[]): Promise<SoloServices> {
  const library = tempLibrary();
  const services = testServices(library.dbPath);
  libraries.push({ library, services });
  for (const fn of functions) {
    await commitUnchecked(services, { name: fn.name, code: corpusCode(fn), description: fn.description, tags: fn.tags });
  }
  return services;
}

async function measure(services: SoloServices | FunctionLibrary, set: readonly CorpusFunction[]): Promise<Measured> {
  const library = services instanceof FunctionLibrary ? services : services.library;
  let hitsAt1 = 0;
  let hitsAt5 = 0;
  let reciprocalRanks = 0;
  const misses: string[] = [];
  for (const fn of set) {
    const outcome = await library.search({ query: fn.query, limit: 10 });
    const rank = outcome.hits.findIndex((hit) => hit.function.name === fn.name) + 1;
    if (rank === 1) hitsAt1++;
    if (rank >= 1 && rank <= 5) hitsAt5++;
    else {
      const got = outcome.hits
        .slice(0, 3)
        .map((h) => h.function.name)
        .join(", ");
      misses.push(`${fn.name} ← "${fn.query}" (rank ${rank || ">10"}; got ${got})`);
    }
    if (rank > 0) reciprocalRanks += 1 / rank;
  }
  const n = set.length;
  const recall5 = hitsAt5 / n;
  const line =
    `recall@5 = ${recall5.toFixed(3)} (${hitsAt5}/${n}), recall@1 = ${(hitsAt1 / n).toFixed(3)}, MRR@10 = ${(reciprocalRanks / n).toFixed(3)}` +
    (misses.length > 0 ? `\n  misses:\n    ${misses.join("\n    ")}` : "");
  return { recall5, line };
}

let project: SoloServices;
let second: SoloServices;
let blind: SoloServices;
let blind2: SoloServices;

beforeAll(async () => {
  // Four library files, filled at once: each commit mostly waits on its own file.
  [project, second, blind, blind2] = await Promise.all([
    libraryOf(SEARCH_CORPUS),
    libraryOf(HOLDOUT_CORPUS),
    libraryOf(BLIND_CORPUS),
    libraryOf(BLIND2_CORPUS),
  ]);
});

afterAll(async () => {
  for (const { library, services } of libraries) {
    await services.dispose();
    library.remove();
  }
});

describe("search quality", () => {
  it("has its labelled sets (≥ 50, ≥ 40 and 48 functions, and the first blind one) with distinct names and queries", () => {
    expect(SEARCH_CORPUS.length).toBeGreaterThanOrEqual(50);
    expect(HOLDOUT_CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(BLIND2_CORPUS.length).toBe(48);
    const both = [...SEARCH_CORPUS, ...HOLDOUT_CORPUS, ...BLIND_CORPUS, ...BLIND2_CORPUS];
    expect(new Set(both.map((f) => f.query)).size).toBe(both.length);
    expect(new Set(both.map((f) => f.name)).size).toBe(both.length);
  });

  it("finds the intended function in the top 5 on the project's paraphrase set (recall@5 ≥ 0.9)", async () => {
    const measured = await measure(project, SEARCH_CORPUS);
    console.log(`search quality, project set (${project.embedder.model} + keywords, RRF): ${measured.line}`);
    expect(measured.recall5).toBeGreaterThanOrEqual(PROJECT_SET_FLOOR);
  });

  it("finds it on the second set, written for issue 19 (recall@5 above its measured floor)", async () => {
    const measured = await measure(second, HOLDOUT_CORPUS);
    console.log(`search quality, second set (${second.embedder.model} + keywords, RRF): ${measured.line}`);
    expect(measured.recall5).toBeGreaterThanOrEqual(SECOND_SET_FLOOR);
  });

  it("on the blind set, above the floor measured there (printed with and without the minimum relevance)", async () => {
    const measured = await measure(blind, BLIND_CORPUS);
    const everything = new FunctionLibrary({ db: blind.library.db, gate: {} as QualityGate, embedder: blind.embedder, minSimilarity: 0 });
    const without = await measure(everything, BLIND_CORPUS);
    console.log(
      `search quality, blind set (${blind.embedder.model} + keywords, RRF): ${measured.line}\n` +
        `  without the minimum relevance: recall@5 = ${without.recall5.toFixed(3)}`,
    );
    expect(measured.recall5).toBeGreaterThanOrEqual(BLIND_SET_FLOOR);
    expect(without.recall5).toBeGreaterThanOrEqual(measured.recall5);
  });

  it("on the second blind set, above the floor measured there", async () => {
    const measured = await measure(blind2, BLIND2_CORPUS);
    console.log(`search quality, second blind set (${blind2.embedder.model} + keywords, RRF): ${measured.line}`);
    expect(measured.recall5).toBeGreaterThanOrEqual(BLIND2_SET_FLOOR);
  });

  it("returns nothing below the minimum relevance: a date query against a library of rolling_mean alone", async () => {
    const only = await libraryOf([
      {
        name: "rolling_mean",
        params: "values: list[float], window: int",
        returns: "list[float]",
        description: "Mean of each window of consecutive values",
        doc: "One result per full window.",
        tags: ["statistics"],
        query: "",
      },
    ]);
    const none = await only.library.search({ query: "parse an ISO 8601 date string into a date", limit: 5 });
    expect(none.hits).toEqual([]);
    expect(none.belowMinimum).toBe(1);
    expect(none.rankedBy).toBe(`${only.embedder.model} vectors + keywords (reciprocal rank fusion)`);
    const found = await only.library.search({ query: "average over a sliding window", limit: 5 });
    expect(found.hits.map((hit) => hit.function.name)).toEqual(["rolling_mean"]);
  });
});
