/**
 * The era option without a server: FUZZ_ERA and `--era` pick legacy, modern or both (the default),
 * and a run's calls are split between the eras round by round so that every call of a one-era run
 * is sent exactly once — fuzzing both eras costs no more calls than fuzzing one — and each era
 * calls every tool.
 */
import { describe, expect, it } from "vitest";
import { eraOfCall, parseEras } from "../src/era.js";
import { harnessOptions } from "../src/options.js";

describe("era option", () => {
  it("is both eras by default; FUZZ_ERA or --era names one, and --era wins", () => {
    expect(harnessOptions({}).eras).toEqual(["legacy", "modern"]);
    expect(harnessOptions({ FUZZ_ERA: "both" }).eras).toEqual(["legacy", "modern"]);
    expect(harnessOptions({ FUZZ_ERA: "modern" }).eras).toEqual(["modern"]);
    expect(harnessOptions({ FUZZ_ERA: "legacy" }).eras).toEqual(["legacy"]);
    expect(harnessOptions({ FUZZ_ERA: "modern" }, ["--era", "legacy"]).eras).toEqual(["legacy"]);
    expect(harnessOptions({}, ["--era=modern"]).eras).toEqual(["modern"]);
    expect(harnessOptions({}, ["--", "--era", "modern"]).eras).toEqual(["modern"]);
  });

  it("refuses anything else, naming where it came from", () => {
    expect(() => parseEras("2026-07-28", "FUZZ_ERA")).toThrow("FUZZ_ERA must be legacy, modern or both (got '2026-07-28')");
    expect(() => harnessOptions({ FUZZ_ERA: "new" })).toThrow(/FUZZ_ERA must be legacy, modern or both/);
    expect(() => harnessOptions({}, ["--era", "old"])).toThrow(/--era must be legacy, modern or both/);
    expect(() => harnessOptions({}, ["--calls", "3"])).toThrow(/Unknown option '--calls'/);
  });
});

describe("eraOfCall", () => {
  const eras = ["legacy", "modern"] as const;
  const calls = (era: string, count: number, toolCount: number) =>
    Array.from({ length: count }, (_, k) => k).filter((k) => eraOfCall(k, toolCount, eras) === era);

  it("alternates rounds (one call to each tool) between the eras", () => {
    expect(Array.from({ length: 8 }, (_, k) => eraOfCall(k, 3, eras))).toEqual([
      "legacy",
      "legacy",
      "legacy",
      "modern",
      "modern",
      "modern",
      "legacy",
      "legacy",
    ]);
    expect(Array.from({ length: 4 }, (_, k) => eraOfCall(k, 3, ["modern"]))).toEqual(["modern", "modern", "modern", "modern"]);
  });

  it("sends every call of the run in exactly one era, each era calling every tool from a valid-looking first round", () => {
    for (const [count, toolCount] of [
      [300, 19],
      [300, 5],
      [300, 3],
      [7, 2],
      [10_000, 6],
    ] as const) {
      const legacy = calls("legacy", count, toolCount);
      const modern = calls("modern", count, toolCount);
      expect([...legacy, ...modern].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, k) => k));
      for (const share of [legacy, modern]) {
        expect(new Set(share.map((k) => k % toolCount)).size).toBe(toolCount);
        // Rounds 0 and 1 are among the valid-looking first ones (case-generator's VALID_FIRST = 3).
        expect(Math.min(...share.map((k) => Math.floor(k / toolCount)))).toBeLessThan(2);
      }
      expect(Math.abs(legacy.length - modern.length)).toBeLessThanOrEqual(toolCount);
    }
  });
});
