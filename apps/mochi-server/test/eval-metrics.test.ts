import { describe, expect, it } from "vitest";
import { scanRepository } from "../src/domain/catalog/scan-repository.js";
import { buildEvalCases } from "../src/domain/eval/eval-cases.js";
import { exactMatch, pairedBootstrap, similarity } from "../src/domain/eval/eval-metrics.js";
import { FIXTURE_REPO } from "./helpers/sample-repo.js";

// mochi eval's pieces that need no model: the metrics, the paired bootstrap on known data, and
// the held-out cases cut from files.

describe("eval metrics", () => {
  it("exact match and similarity (1 − Levenshtein / longer length) ignore trailing whitespace only", () => {
    expect(exactMatch("  return a;\n", "  return a;")).toBe(true);
    expect(exactMatch("return a;", "  return a;")).toBe(false);
    expect(similarity("abcd", "abcx")).toBeCloseTo(0.75, 10);
    expect(similarity("", "")).toBe(1);
    expect(similarity("", "abc")).toBe(0);
    expect(similarity("kitten", "sitting")).toBeCloseTo(1 - 3 / 7, 10);
  });

  it("the paired bootstrap interval of a constant lift is that lift", () => {
    const interval = pairedBootstrap([1, 1, 1, 1], [0, 0, 0, 0], { seed: 1 });
    expect(interval).toEqual({ mean: 1, low: 1, high: 1 });
  });

  it("the paired bootstrap 95 % interval of a half-and-half lift is the mean ± 1.96 standard errors, the same for the same seed", () => {
    // 100 pairs, lift 1 on half and 0 on the other half: mean 0.5, standard error 0.5/√100 = 0.05.
    const treatment = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const control = Array.from({ length: 100 }, () => 0);
    const interval = pairedBootstrap(treatment, control, { seed: 7, resamples: 4_000 });
    expect(interval.mean).toBe(0.5);
    expect(interval.low).toBeGreaterThan(0.5 - 1.96 * 0.05 - 0.02);
    expect(interval.low).toBeLessThan(0.5 - 1.96 * 0.05 + 0.02);
    expect(interval.high).toBeGreaterThan(0.5 + 1.96 * 0.05 - 0.02);
    expect(interval.high).toBeLessThan(0.5 + 1.96 * 0.05 + 0.02);
    expect(pairedBootstrap(treatment, control, { seed: 7, resamples: 4_000 })).toEqual(interval);
  });

  it("pairs differences, not the two means: a shared per-case effect cancels out", () => {
    // Case difficulty varies wildly, the adapter adds exactly 0.1 to every case: the interval is [0.1, 0.1].
    const control = Array.from({ length: 50 }, (_, i) => (i * 37) % 11);
    const treatment = control.map((x) => x + 0.1);
    const interval = pairedBootstrap(treatment, control, { seed: 3 });
    expect(interval.mean).toBeCloseTo(0.1, 10);
    expect(interval.high - interval.low).toBeLessThan(1e-9);
  });

  it("weights pairs (cross-entropy by tokens) and refuses unpaired samples", () => {
    expect(pairedBootstrap([1, 0], [0, 0], { seed: 1, weights: [3, 1] }).mean).toBe(0.75);
    expect(() => pairedBootstrap([1], [1, 2], { seed: 1 })).toThrow(/differ in length/);
  });
});

const files = (await scanRepository(FIXTURE_REPO)).files.filter((f) => f.path.startsWith("src/"));

describe("eval cases", () => {
  it("next-line: the file up to a line start, that line expected; fim: the code before and after a 1–3-line span", () => {
    const cases = buildEvalCases(files, { seed: 42 });
    expect(cases.some((c) => c.kind === "next-line")).toBe(true);
    expect(cases.some((c) => c.kind === "fim")).toBe(true);
    for (const c of cases) {
      const text = files.find((f) => f.path === c.path)?.text ?? "";
      const lines = text.split("\n");
      expect(c.expected.trim()).not.toBe("");
      expect(c.prefix).toBe(lines.slice(0, c.line - 1).join("\n") + (c.line > 1 ? "\n" : ""));
      if (c.kind === "next-line") {
        expect([c.scope, c.suffix, c.expected]).toEqual(["line", "", lines[c.line - 1]]);
      } else {
        expect(c.scope).toBe("block");
        const span = c.expected.split("\n").length;
        expect(span).toBeGreaterThanOrEqual(1);
        expect(span).toBeLessThanOrEqual(3);
        expect(`${c.prefix}${c.expected}\n${c.suffix}`).toBe(text);
      }
    }
  });

  it("is deterministic for a seed; --limit keeps that many, chosen by the seed, sorted by file and line", () => {
    const all = buildEvalCases(files, { seed: 42 });
    expect(buildEvalCases(files, { seed: 42 })).toEqual(all);
    expect(buildEvalCases(files, { seed: 43 })).not.toEqual(all);
    const some = buildEvalCases(files, { seed: 42, limit: 5 });
    expect(some).toHaveLength(5);
    expect(buildEvalCases(files, { seed: 42, limit: 5 })).toEqual(some);
    const keys = some.map((c) => `${c.path}\u0000${String(c.line).padStart(6, "0")}`);
    expect([...keys].sort()).toEqual(keys);
  });
});
