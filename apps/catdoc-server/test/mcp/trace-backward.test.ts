/** catdoc_trace with direction "backward": what leads to an object, what covers it, and paths from the target to the source. */
import { describe, expect, it } from "vitest";
import { COVERAGE_YAML } from "../domain/coverage-fixture.js";
import { call, callError, levels, useCatDoc, writeProject } from "./helpers.js";

const { tempDir, connect, example } = useCatDoc();

async function coverageProject() {
  return connect(await writeProject(await tempDir(), COVERAGE_YAML));
}

describe("catdoc_trace direction backward", () => {
  it("without targetId: what leads to the source in its category and what covers it, ids at minimal", async () => {
    const client = await coverageProject();
    // The fixture's functor tested breaks a law on purpose (r5 ↦ a test that does not exist): followed only when
    // asked, and named with the laws it breaks (its gaps — unmapped objects and arrows — are not among them).
    expect(await call(client, "catdoc_trace", { sourceId: "t2", direction: "backward" })).toMatchObject({
      coveredBy: [],
      skipped: [{ kind: "functor", id: "tested", codes: ["FUNCTOR_UNKNOWN_OBJECT"] }],
    });
    const { minimal, standard } = await levels(client, "catdoc_trace", { sourceId: "t2", direction: "backward", includeInvalid: true });
    expect(minimal).toMatchObject({
      mode: "backward",
      direction: "backward",
      source: "t2",
      found: true,
      length: 1,
      pathCount: 3,
      truncated: false,
      leadsTo: ["t1"],
      coveredBy: ["r2", "r3"],
      categoryId: "tests",
    });
    expect(minimal).not.toHaveProperty("target");
    const paths = standard.paths as { objectIds?: string[]; steps?: { id: string; fromObject: string }[] }[];
    expect(paths[0]?.objectIds).toEqual(["t1", "t2"]);
    expect(paths[1]?.steps).toMatchObject([{ id: "tested", fromObject: "r2", toObject: "t2" }]);
  });

  it("with targetId: the paths from the target to the source (the forward trace finds none)", async () => {
    const client = await coverageProject();
    expect(await call(client, "catdoc_trace", { sourceId: "x1", targetId: "r2" })).toMatchObject({ found: false });
    const backward = await call(client, "catdoc_trace", { sourceId: "x1", targetId: "r2", direction: "backward", includeInvalid: true });
    expect(backward).toMatchObject({ mode: "across", direction: "backward", source: "x1", target: "r2", found: true, length: 2 });
    const within = await call(client, "catdoc_trace", { sourceId: "r3", targetId: "r4", direction: "backward" });
    expect(within).toMatchObject({ mode: "within", found: true, length: 3, paths: [{ objectIds: ["r4", "r1", "r2", "r3"] }] });
  });

  it("forward without targetId is INVALID_INPUT; the seed's call is unchanged", async () => {
    const client = await coverageProject();
    expect(await callError(client, "catdoc_trace", { sourceId: "t2" })).toMatchObject({ code: "INVALID_INPUT" });
    const { client: math } = await example("math-docs");
    const forward = await call(math, "catdoc_trace", { sourceId: "sets", targetId: "fields" });
    expect(forward).not.toHaveProperty("direction");
    expect(forward).toMatchObject({ mode: "within", found: true, length: 3 });
  });
});
