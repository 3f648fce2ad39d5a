/**
 * Trace skips functors and natural transformations that fail validation unless asked
 * (includeInvalid / --include-invalid), and says which it skipped and why (issue 17 item 4):
 * the domain both ways, the CLI in-process and catdoc_trace, on one small project.
 */
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { indexProject, traceAcross } from "../../src/domain/index.js";
import type { CatDocModel } from "../../src/domain/index.js";
import { traceBackward } from "../../src/domain/trace/backward.js";
import { runInProcess } from "../cli/run-in-process.js";
import { call, useCatDoc, writeProject } from "../mcp/helpers.js";
import { squareModel } from "./helpers.js";

/** The naturality square with F sending f to d: x → y2 instead of an arrow x → y. */
function brokenF(): CatDocModel {
  const model = squareModel(true);
  model.functors[0]!.morphismMapping["f"] = "d";
  return model;
}

const stepIds = (path: { steps: { kind: string; id: string }[] }) => path.steps.map((s) => `${s.kind}:${s.id}`);

describe("trace and structures that fail validation", () => {
  it("does not follow a functor that fails validation, and names it with its error codes", () => {
    const index = indexProject(brokenF());
    const skipping = traceAcross(index, "a", "D");
    expect(skipping.paths.map(stepIds)).toEqual([["functor:G"]]);
    expect(skipping.skipped).toEqual([{ kind: "functor", id: "F", codes: ["FUNCTOR_MORPHISM_MISMATCH"] }]);

    const including = traceAcross(index, "a", "D", { includeInvalid: true });
    expect(including.paths.map(stepIds)).toEqual([["functor:F"], ["functor:G"], ["functor:F", "naturalTransformation:eta"]]);
    expect(including.skipped).toEqual([]);
  });

  it("does not take the components of a natural transformation that fails validation", () => {
    const model = squareModel(true);
    model.naturalTransformations[0]!.components["nowhere"] = "eta-a";
    const index = indexProject(model);
    const skipping = traceAcross(index, "a", "D");
    expect(skipping.paths.flatMap(stepIds)).not.toContain("naturalTransformation:eta");
    expect(skipping.skipped).toEqual([{ kind: "naturalTransformation", id: "eta", codes: ["NT_UNKNOWN_COMPONENT"] }]);
    expect(traceAcross(index, "a", "D", { includeInvalid: true }).paths.flatMap(stepIds)).toContain("naturalTransformation:eta");
  });

  it("backwards, does not list what an invalid functor maps onto the object", () => {
    const model = squareModel(true);
    model.functors[1]!.morphismMapping["f"] = "d"; // G(f) should go x2 → y2
    const index = indexProject(model);
    const skipping = traceBackward(index, "x2");
    expect(skipping.coveredBy).toEqual([]);
    expect(skipping.skipped).toEqual([{ kind: "functor", id: "G", codes: ["FUNCTOR_MORPHISM_MISMATCH"] }]);
    const including = traceBackward(index, "x2", { includeInvalid: true });
    expect(including.coveredBy.map(stepIds)).toEqual([["functor:G"]]);
    expect(including.skipped).toEqual([]);
  });

  it("a valid project skips nothing", () => {
    const index = indexProject(squareModel(true));
    expect(traceAcross(index, "a", "D").skipped).toEqual([]);
    expect(traceBackward(index, "x2").skipped).toEqual([]);
  });
});

describe("catdoc trace and catdoc_trace skip invalid structures", () => {
  const { tempDir, connect } = useCatDoc();

  it("the CLI says what it skipped and follows it with --include-invalid; the tool likewise with includeInvalid", async () => {
    const root = await writeProject(await tempDir(), stringify(brokenF()));

    const skipping = await runInProcess(["trace", "a", "--to-category", "D", "--all"], root);
    expect(skipping.code).toBe(0);
    expect(skipping.stdout).toContain("skipped functor F: it fails validation (FUNCTOR_MORPHISM_MISMATCH); --include-invalid follows it\n");
    expect(skipping.stdout).not.toContain("(F)");
    const including = await runInProcess(["trace", "a", "--to-category", "D", "--all", "--include-invalid"], root);
    expect(including.stdout).not.toContain("skipped");
    expect(including.stdout).toContain("==F (F)==> x");
    const json = JSON.parse((await runInProcess(["trace", "a", "--to-category", "D", "--format", "json"], root)).stdout);
    expect(json.skipped).toEqual([{ kind: "functor", id: "F", codes: ["FUNCTOR_MORPHISM_MISMATCH"] }]);

    const client = await connect(root);
    const viaTool = await call(client, "catdoc_trace", { sourceId: "a", targetId: "x", findAll: true });
    // Only F reaches x: skipped, the trace finds nothing and says why.
    expect(viaTool).toMatchObject({
      mode: "across",
      found: false,
      skipped: [{ kind: "functor", id: "F", codes: ["FUNCTOR_MORPHISM_MISMATCH"] }],
    });
    const withInvalid = await call(client, "catdoc_trace", { sourceId: "a", targetId: "x", includeInvalid: true });
    expect(withInvalid.skipped).toBeUndefined();
    expect(withInvalid).toMatchObject({ found: true, length: 1 });
  });
});
