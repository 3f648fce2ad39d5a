/** catdoc_coverage at each level: counts, the ids not covered, each object. */
import { describe, expect, it } from "vitest";
import { COVERAGE_YAML } from "../domain/coverage-fixture.js";
import { call, callError, levels, useCatDoc, writeProject } from "./helpers.js";

const { tempDir, connect } = useCatDoc();

async function coverageProject() {
  return connect(await writeProject(await tempDir(), COVERAGE_YAML));
}

describe("catdoc_coverage", () => {
  it("minimal: counts and percentages per functor; standard: the ids not covered and the orphans; full: each object", async () => {
    const client = await coverageProject();
    const { minimal, standard, full } = await levels(client, "catdoc_coverage", { functorId: "tested" });
    expect(minimal).toEqual({
      functors: [
        {
          id: "tested",
          sourceCategory: "reqs",
          targetCategory: "tests",
          objects: 6,
          covered: 2,
          triviallyCovered: 2,
          uncovered: 2,
          percent: { covered: 33.3, triviallyCovered: 33.3, uncovered: 33.3 },
        },
      ],
      categories: [
        { id: "reqs", objects: 6, orphanCount: 1 },
        { id: "tests", objects: 4, orphanCount: 1 },
      ],
    });
    expect(standard).toMatchObject({
      functors: [{ name: "Tested by", uncoveredIds: ["r5", "r6"], triviallyCoveredIds: ["r2", "r4"], truncated: false }],
      categories: [{ orphans: ["r5"] }, { orphans: ["t3"] }],
    });
    const detail = (full.functors as { detail: { id: string; status: string }[] }[])[0]?.detail ?? [];
    // Not covered first.
    expect(detail.map((o) => `${o.id}:${o.status}`)).toEqual([
      "r5:uncovered",
      "r6:uncovered",
      "r2:trivially-covered",
      "r4:trivially-covered",
      "r1:covered",
      "r3:covered",
    ]);
  });

  it("covers every functor without functorId, cuts lists at limit, and answers NOT_FOUND for an unknown functor", async () => {
    const client = await coverageProject();
    const all = await call(client, "catdoc_coverage", { response_level: "standard", limit: 1 });
    expect((all.functors as { id: string }[]).map((f) => f.id)).toEqual(["tested", "audited", "broken"]);
    expect((all.functors as { uncoveredIds: string[]; truncated: boolean }[])[0]).toMatchObject({ uncoveredIds: ["r5"], truncated: true });
    const error = await callError(client, "catdoc_coverage", { functorId: "nope" });
    expect(error).toMatchObject({ code: "NOT_FOUND", message: "Functor 'nope' not found" });
    expect(error.suggestion).toMatch(/catdoc_list_functors/);
  });
});
