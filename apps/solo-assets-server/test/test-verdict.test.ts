/**
 * The test step's verdict is the server's (issue #13, item 8): expected values stay out of the
 * probes the sandbox gets, the result channel is parsed strictly (a forged, duplicated or
 * misplaced line fails the run), and values compare by the documented rules.
 */
import { describe, expect, it } from "vitest";
import { encodeJson, judgeCases, parseHarnessOutput, planCases, sameValue } from "../src/domain/gate/tests/test-verdict.js";
import type { AssertPlan } from "../src/domain/gate/tests/test-verdict.js";

const lines = (...records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");

describe("planCases", () => {
  it("sends the arguments and expressions into the sandbox, never an expected value", () => {
    const asserts: AssertPlan[] = [
      { kind: "compare", op: "==", left: { expr: "add(1, 2)" }, right: { literal: 987654 } },
      { kind: "truth", expr: "add(0, 0) == add(0, 0)", negate: false },
    ];
    const { probes, plans } = planCases(
      "add",
      [{ input: { a: 2, b: 3 }, expected: 123456 }, "assert add(1, 2) == 987654", "assert add(0, 0) == add(0, 0)"],
      asserts,
    );
    const inside = JSON.stringify(probes);
    expect(inside).not.toContain("123456");
    expect(inside).not.toContain("987654");
    expect(probes.map((p) => p.kind)).toEqual(["call", "eval", "eval"]);
    expect(plans.map((p) => p.kind)).toEqual(["call", "compare", "truth"]);
  });
});

describe("parseHarnessOutput", () => {
  it("accepts the harness's own lines and judges the values here", () => {
    const { plans } = planCases(
      "add",
      [
        { input: { a: 2, b: 3 }, expected: 5 },
        { input: { a: 1, b: 1 }, expected: 2 },
      ],
      [],
    );
    const output = parseHarnessOutput(lines({ load: "ok" }, { id: 0, value: -1 }, { id: 1, value: 2 }), 2, false);
    expect(output.tampered).toBeUndefined();
    const cases = judgeCases(plans, output);
    expect(cases.map((c) => c.passed)).toEqual([false, true]);
    expect(cases[0]?.error).toBe("expected 5, got -1");
  });

  it("fails the whole run on a forged line before the load report, a duplicate, an unknown id or a foreign shape", () => {
    const forged = [
      lines({ index: 0, passed: true }, { load: "ok" }, { id: 0, value: 5 }),
      lines({ load: "ok" }, { id: 0, value: 5 }, { id: 0, value: -1 }),
      lines({ load: "ok" }, { id: 7, value: 5 }),
      lines({ load: "ok" }, { id: 0, value: 5, passed: true }),
      lines({ load: "ok" }, { id: 0, value: { $evil: 1 } }),
      `${lines({ load: "ok" })}not json\n`,
    ];
    const { plans } = planCases("add", [{ input: { a: 2, b: 3 }, expected: 5 }], []);
    for (const stdout of forged) {
      const output = parseHarnessOutput(stdout, 1, false);
      expect(output.tampered, stdout).toBeDefined();
      expect(judgeCases(plans, output).every((c) => !c.passed)).toBe(true);
    }
  });

  it("ignores a partial last line (a run killed mid-write) and reports the cases without a result", () => {
    const { plans } = planCases(
      "f",
      [
        { input: {}, expected: 1 },
        { input: {}, expected: 2 },
      ],
      [],
    );
    const output = parseHarnessOutput(`${lines({ load: "ok" }, { id: 0, value: 1 })}{"id": 1, "va`, 2, false);
    expect(output.tampered).toBeUndefined();
    expect(judgeCases(plans, output).map((c) => c.passed)).toEqual([true, false]);
  });

  it("refuses more than the channel's bound", () => {
    expect(parseHarnessOutput("", 0, true).tampered).toMatch(/4 MiB/);
  });
});

describe("sameValue", () => {
  it("follows the documented rules", () => {
    expect(sameValue(1, encodeJson(1))).toBe(true);
    expect(sameValue({ $float: "0.30000000000000004" }, encodeJson(0.3))).toBe(true);
    expect(sameValue({ $float: "1.0" }, 1)).toBe(true);
    expect(sameValue(true, 1)).toBe(false);
    expect(sameValue({ $int: "18446744073709551617" }, { $int: "18446744073709551616" })).toBe(false);
    expect(sameValue(1_000_000_000_000, 1_000_000_000_001)).toBe(false);
    expect(sameValue([1, [2, "x"]], encodeJson([1, [2, "x"]]))).toBe(true);
    expect(sameValue({ $dict: { a: 1 } }, encodeJson({ a: 1 }))).toBe(true);
    expect(sameValue({ $set: [1, 2] }, { $set: [2, 1] })).toBe(true);
    expect(sameValue({ $repr: "<object>" }, { $repr: "<object>" })).toBe(false);
    expect(sameValue({ $float: "nan" }, { $float: "nan" })).toBe(false);
  });
});
