/** Backward trace: what leads to an object in its category, and what covers it across functors. */
import { describe, expect, it } from "vitest";
import { CatDocInputError, CatDocNotFoundError, traceBackward } from "../../src/domain/index.js";
import { coverageIndex } from "./coverage-fixture.js";

const index = coverageIndex();
const ids = (path: { morphisms: { id: string }[] }) => path.morphisms.map((m) => m.id);

describe("what leads to an object", () => {
  it("lists every object with a path to it, nearest first, each with its shortest path along the arrows", () => {
    const result = traceBackward(index, "r3");
    expect(result).toMatchObject({ target: "r3", categoryId: "reqs", truncated: false });
    expect(result.leadsTo.map((p) => [p.objectIds, ids(p), p.length])).toEqual([
      [["r2", "r3"], ["b"], 1],
      [["r6", "r3"], ["d"], 1],
      [["r1", "r2", "r3"], ["a", "b"], 2],
      [["r4", "r1", "r2", "r3"], ["c", "a", "b"], 3],
    ]);
    expect(traceBackward(index, "r3", { maxDepth: 2 }).leadsTo.map((p) => p.objectIds[0])).toEqual(["r2", "r6", "r1"]);
  });

  it("says when maxPaths cut the list", () => {
    const result = traceBackward(index, "r3", { maxPaths: 2 });
    expect(result.leadsTo.map((p) => p.objectIds[0])).toEqual(["r2", "r6"]);
    expect(result.truncated).toBe(true);
    expect(traceBackward(index, "r4").leadsTo).toEqual([]);
  });
});

// The fixture's functors are partial or broken on purpose (coverage's cases), so none validates. A
// partial one (audited: only unmapped objects and arrows) is followed; one that breaks a law
// (tested maps r5 to no object) is skipped unless asked (includeInvalid), and named with its codes.
const invalid = { includeInvalid: true };

describe("what covers an object", () => {
  it("follows a partial functor (gaps only); skips one that breaks a law, naming it and its error codes", () => {
    const result = traceBackward(index, "x1");
    expect(result.coveredBy.map((p) => p.steps.map((s) => `${s.fromObject}=${s.id}=>${s.toObject}`))).toEqual([
      ["t2=audited=>x1"],
      ["t4=audited=>x1"],
    ]);
    expect(result.skipped).toEqual([{ kind: "functor", id: "tested", codes: ["FUNCTOR_UNKNOWN_OBJECT"] }]);
  });

  it("follows functors backwards: preimages, then their preimages, fewest functors first", () => {
    const result = traceBackward(index, "x1", invalid);
    expect(result.leadsTo).toEqual([]);
    expect(result.coveredBy.map((p) => [p.steps.map((s) => `${s.fromObject}=${s.id}=>${s.toObject}`), p.length])).toEqual([
      [["t2=audited=>x1"], 1],
      [["t4=audited=>x1"], 1],
      [["r2=tested=>t2", "t2=audited=>x1"], 2],
      [["r3=tested=>t2", "t2=audited=>x1"], 2],
    ]);
    expect(result.coveredBy.every((p) => p.resultObject === "x1" && p.resultCategory === "audits" && p.arrival === null)).toBe(true);
    // A mapping from a category that does not exist (broken: n1 ↦ t1) covers nothing.
    expect(traceBackward(index, "t1", invalid).coveredBy.map((p) => p.steps[0]?.fromObject)).toEqual(["r1", "r4"]);
  });

  it("keeps the covering objects of one category, and refuses unknown ids and bad bounds", () => {
    expect(traceBackward(index, "x1", { ...invalid, coveringCategoryId: "reqs" }).coveredBy.map((p) => p.steps[0]?.fromObject)).toEqual([
      "r2",
      "r3",
    ]);
    expect(traceBackward(index, "x1", { ...invalid, maxDepth: 1 }).coveredBy).toHaveLength(2);
    expect(() => traceBackward(index, "nope")).toThrow(CatDocNotFoundError);
    expect(() => traceBackward(index, "x1", { coveringCategoryId: "nope" })).toThrow(CatDocNotFoundError);
    expect(() => traceBackward(index, "x1", { maxPaths: 0 })).toThrow(CatDocInputError);
  });
});
