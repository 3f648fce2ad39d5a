/**
 * The era option without a server: FUZZ_ERA and `--era` pick legacy, modern or both (the default),
 * and a run's calls are split between the eras so that every call of a one-era run is sent exactly
 * once — fuzzing both eras costs no more calls than fuzzing one.
 */
import { describe, expect, it } from "vitest";
import { parseEras, splitCalls } from "../src/era.js";
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

describe("splitCalls", () => {
  it("gives each era its own consecutive range of one run's calls, the first era the odd one", () => {
    expect(splitCalls(300, ["legacy", "modern"])).toEqual([
      { era: "legacy", offset: 0, calls: 150 },
      { era: "modern", offset: 150, calls: 150 },
    ]);
    expect(splitCalls(7, ["legacy", "modern"])).toEqual([
      { era: "legacy", offset: 0, calls: 4 },
      { era: "modern", offset: 4, calls: 3 },
    ]);
    expect(splitCalls(300, ["modern"])).toEqual([{ era: "modern", offset: 0, calls: 300 }]);
  });

  it("sends every call index of the run exactly once, whatever the count", () => {
    for (const calls of [0, 1, 2, 3, 10, 299, 10_000]) {
      const indexes = splitCalls(calls, ["legacy", "modern"]).flatMap(({ offset, calls: n }) => Array.from({ length: n }, (_, i) => offset + i));
      expect(indexes).toEqual(Array.from({ length: calls }, (_, i) => i));
    }
  });
});
