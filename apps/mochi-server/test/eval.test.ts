import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { silentLogger } from "@local-mcp/core";
import { LlamaEngine } from "@local-mcp/core/inference";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateRepository, renderEvalTable } from "../src/cli/eval-command.js";
import { scanRepository } from "../src/domain/catalog/scan-repository.js";
import { buildDataset } from "../src/domain/dataset/build-dataset.js";
import { writeDataset } from "../src/domain/dataset/dataset-files.js";
import type { EvalCase } from "../src/domain/eval/eval-cases.js";
import { lastEvalPath, readEvalRecord } from "../src/domain/eval/eval-record.js";
import { runEvalCases, summarise } from "../src/domain/eval/eval-run.js";
import { completeAt } from "../src/domain/model/complete-at.js";
import { resourceText } from "./helpers/resource-text.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { connectMochi, TEST_ENV, writeTinyModelFiles, type TinyModelFiles } from "./helpers/tiny-model.js";

// mochi eval on the tiny generated FIM model and its LoRA, over the fixture repository's
// validation split: both models measured with every metric, the lift with its interval, the
// record beside the catalog and in mochi://stats; exact match counted on a case whose answer is known.

let model: TinyModelFiles;
let repo: string;

beforeAll(async () => {
  model = await writeTinyModelFiles();
  repo = copyFixtureRepo();
  const catalog = await indexInto(repo);
  writeDataset(join(repo, ".mochi", "dataset"), buildDataset(await scanRepository(repo), catalog, { seed: 42, validRatio: 0.3 }), "alpaca");
});

afterAll(() => {
  for (const dir of [model.dir, repo]) rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...TEST_ENV, MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora });

describe("mochi eval", () => {
  it("measures the base and the adapter on the validation split: exact match, similarity, cross-entropy, the lift with an interval", async () => {
    const { record, recorded } = await evaluateRepository(repo, { limit: "6", seed: "5", quiet: true }, env());
    expect(record.held_out).toBe("validation");
    // As the server: MOCHI_CONTEXT is on unless set off.
    expect(record.context).toBe("on");
    expect(record.files.length).toBeGreaterThan(0);
    expect(record.cases.total).toBe(6);
    expect(record.models.map((m) => m.label)).toEqual(["base", "tiny-lora.gguf@1"]);
    for (const m of record.models) {
      expect(m.cases).toBe(6);
      expect(m.exact_match).toBeGreaterThanOrEqual(0);
      expect(m.exact_match).toBeLessThanOrEqual(1);
      expect(m.similarity).toBeGreaterThanOrEqual(0);
      expect(m.similarity).toBeLessThanOrEqual(1);
      // A random 273-token model: about ln 273 ≈ 5.6 nats a token.
      expect(m.cross_entropy).toBeGreaterThan(1);
      expect(m.cross_entropy).toBeLessThan(12);
      expect(m.cases_per_second).toBeGreaterThan(0);
    }
    expect(record.models[0]?.cross_entropy).not.toBe(record.models[1]?.cross_entropy);
    const lift = record.lift[0];
    expect(lift?.label).toBe("tiny-lora.gguf@1");
    for (const interval of [lift?.exact_match, lift?.similarity, lift?.cross_entropy]) {
      expect(interval?.low).toBeLessThanOrEqual(interval?.mean ?? Number.NaN);
      expect(interval?.high).toBeGreaterThanOrEqual(interval?.mean ?? Number.NaN);
    }
    const base = record.models[0];
    const adapter = record.models[1];
    expect(lift?.cross_entropy?.mean).toBeCloseTo((adapter?.cross_entropy ?? 0) - (base?.cross_entropy ?? 0), 6);

    expect(recorded).toBe(join(repo, ".mochi", "eval", "last.json"));
    expect(readEvalRecord(recorded)).toEqual(record);
    const table = renderEvalTable(record, recorded);
    expect(table).toMatch(/^model +exact match +similarity +cross-entropy \(nats\/token\) +cases\/s$/m);
    expect(table).toMatch(/^base +\d+\.\d % +\d\.\d{3} +\d+\.\d{3} +\d+\.\d$/m);
    expect(table).toMatch(/^tiny-lora\.gguf@1 +\d+\.\d % +\d\.\d{3} +\d+\.\d{3} +\d+\.\d$/m);
    expect(table).toMatch(
      /^tiny-lora\.gguf@1 +exact match [+-]\d+\.\d points \[[+-]\d+\.\d, [+-]\d+\.\d\] +similarity .+ cross-entropy .+ nats\/token$/m,
    );

    // The same seed gives the same cases and the same greedy results.
    const again = await evaluateRepository(repo, { limit: "6", seed: "5", quiet: true }, env());
    expect(again.record.models.map((m) => [m.exact_match, m.similarity, m.cross_entropy])).toEqual(
      record.models.map((m) => [m.exact_match, m.similarity, m.cross_entropy]),
    );
  }, 120_000);

  it("--files and --adapter override the split and MOCHI_ADAPTER; the base alone has no lift", async () => {
    const { record } = await evaluateRepository(
      repo,
      { files: [join(repo, "src", "result.ts")], adapter: [`${model.lora}:0.5`], limit: "4", context: "off", quiet: true },
      env(),
    );
    expect(record.held_out).toBe("files");
    expect(record.context).toBe("off");
    expect(record.files).toEqual(["src/result.ts"]);
    expect(record.models.map((m) => m.label)).toEqual(["base", "tiny-lora.gguf@0.5"]);
    const alone = await evaluateRepository(
      repo,
      { files: ["src/result.ts"], limit: "2", quiet: true },
      { ...TEST_ENV, MOCHI_MODEL: model.fimModel },
    );
    expect(alone.record.models.map((m) => m.label)).toEqual(["base"]);
    expect(alone.record.lift).toEqual([]);
    expect(renderEvalTable(alone.record, alone.recorded)).toContain("no adapter to compare");
  }, 60_000);

  it("counts exact match right on cases whose answer is known", async () => {
    const engine = new LlamaEngine(
      { modelPath: model.fimModel, gpu: "cpu", threads: 1, contextSize: 2048, reusePrefix: true },
      { logger: silentLogger },
    );
    try {
      const prefix = "export function area(width: number, height: number): number {\n";
      // What the model writes here is its greedy line: expecting exactly that is a hit, anything else a miss.
      const greedy = await completeAt(engine, { prefix, suffix: "", scope: "line" });
      const known: EvalCase = {
        kind: "next-line",
        path: "a.ts",
        line: 2,
        language: "typescript",
        prefix,
        suffix: "",
        expected: greedy.text,
        scope: "line",
      };
      const cases = [known, { ...known, expected: `${greedy.text}x` }, { ...known, expected: `${greedy.text}\n` }];
      const outcomes = await runEvalCases({ label: "base", model: engine }, cases);
      expect(outcomes.map((o) => o.exact)).toEqual([true, false, true]);
      expect(outcomes[1]?.similarity).toBeCloseTo(greedy.text.length / (greedy.text.length + 1), 10);
      expect(summarise("base", cases, outcomes, 1).exact_match).toBeCloseTo(2 / 3, 10);
    } finally {
      await engine.dispose();
    }
  });

  it("mochi://stats shows the last eval: base vs adapter, the interval, when, which files", async () => {
    const mochi = await connectMochi({ MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora }, repo);
    try {
      const stats = JSON.parse(resourceText(await mochi.connection.client.readResource({ uri: "mochi://stats" }))) as {
        eval: Record<string, unknown>;
      };
      const recorded = readEvalRecord(lastEvalPath(join(repo, ".mochi", "catalog.json")));
      expect(recorded).toBeDefined();
      expect(stats.eval).toMatchObject({
        path: join(repo, ".mochi", "eval", "last.json"),
        when: recorded?.when,
        files: recorded?.files,
        cases: recorded?.cases,
        models: recorded?.models.map((m) => ({
          label: m.label,
          exact_match: m.exact_match,
          similarity: m.similarity,
          cross_entropy: m.cross_entropy,
        })),
        lift: recorded?.lift,
      });
    } finally {
      await mochi.close();
    }
  });

  it("mochi://stats says how to make one when no eval was recorded", async () => {
    const other = copyFixtureRepo();
    try {
      await indexInto(other);
      const mochi = await connectMochi({}, other);
      try {
        const stats = JSON.parse(resourceText(await mochi.connection.client.readResource({ uri: "mochi://stats" }))) as {
          eval: Record<string, unknown>;
        };
        expect(existsSync(join(other, ".mochi", "eval"))).toBe(false);
        expect(stats.eval).toEqual({ path: join(other, ".mochi", "eval", "last.json"), state: "none: run `mochi eval` in the repository" });
      } finally {
        await mochi.close();
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
