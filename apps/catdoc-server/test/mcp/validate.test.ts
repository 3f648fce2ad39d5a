/** The validate tools: verdicts as results, counts always whole, lists cut to a limit. */
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { call, levels, useCatDoc, writeProject } from "./helpers.js";
import { squareModel, validModel } from "../domain/helpers.js";

const { example, tempDir, connect } = useCatDoc();

describe("catdoc_validate", () => {
  it("finds math-docs valid with its 3 MISSING_COMPOSITION warnings", async () => {
    const { client } = await example("math-docs");
    const { minimal, standard, full } = await levels(client, "catdoc_validate");
    expect(minimal).toMatchObject({
      scope: { kind: "project" },
      isValid: true,
      errors: [],
      summary: { categoriesChecked: 2, functorsChecked: 1, naturalTransformationsChecked: 0, totalErrors: 0, totalWarnings: 3 },
      countsByCode: { MISSING_COMPOSITION: 3 },
      truncated: false,
    });
    expect(minimal.warnings).toEqual([
      { code: "MISSING_COMPOSITION", categoryId: "algebra", objectIds: ["sets", "groups", "rings"], morphismIds: ["set-to-group", "group-to-ring"] },
      { code: "MISSING_COMPOSITION", categoryId: "algebra", objectIds: ["groups", "rings", "fields"], morphismIds: ["group-to-ring", "ring-to-field"] },
      { code: "MISSING_COMPOSITION", categoryId: "algebra", objectIds: ["groups", "rings", "modules"], morphismIds: ["group-to-ring", "ring-to-module"] },
    ]);
    expect((standard.warnings as { message: string }[]).map((w) => w.message)).toEqual([
      "Missing composition: group-to-ring∘set-to-group (sets → rings)",
      "Missing composition: ring-to-field∘group-to-ring (groups → fields)",
      "Missing composition: ring-to-module∘group-to-ring (groups → modules)",
    ]);
    expect(full).toMatchObject({ checks: { MISSING_COMPOSITION: expect.stringContaining("composable") } });
    expect((full.warnings as unknown[])[0]).toMatchObject({ severity: "warning" });
  });

  it("finds dev-project valid, and validates one category", async () => {
    const { client } = await example("dev-project");
    expect(await call(client, "catdoc_validate")).toMatchObject({ isValid: true, errors: [], warnings: [], summary: { categoriesChecked: 5, functorsChecked: 4 } });
    const { client: math } = await example("math-docs");
    expect(await call(math, "catdoc_validate", { categoryId: "topology" })).toMatchObject({
      scope: { kind: "category", id: "topology" },
      isValid: true,
      summary: { categoriesChecked: 1, totalWarnings: 0 },
    });
  });

  it("returns isValid false as a result, and cuts long lists while counting everything", async () => {
    const model = validModel();
    const D = model.categories[1];
    if (D === undefined) throw new Error("fixture");
    // Break identities of D: four MISSING_IDENTITY... via removing them, and functors lose their images.
    D.morphisms = D.morphisms.filter((m) => !m.id.startsWith("id-"));
    const client = await connect(await writeProject(await tempDir(), stringify(model)));
    const result = await call(client, "catdoc_validate", { limit: 2, response_level: "standard" });
    expect(result.isValid).toBe(false);
    const summary = result.summary as { totalErrors: number };
    expect(summary.totalErrors).toBeGreaterThan(2);
    expect(result.errors).toHaveLength(2);
    expect(result).toMatchObject({ truncated: true, nextOffset: 2 });
    expect(Object.values(result.countsByCode as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(summary.totalErrors);
    expect((result.errors as { code: string; message: string }[])[0]).toMatchObject({ code: "MISSING_IDENTITY", message: expect.stringContaining("x") });
    const rest = await call(client, "catdoc_validate", { limit: 1000, offset: 2 });
    expect(rest.errors).toHaveLength(summary.totalErrors - 2);
    expect(rest.truncated).toBe(false);
  });
});

describe("validate one category, functor or natural transformation", () => {
  it("checks each on its own", async () => {
    const client = await connect(await writeProject(await tempDir(), stringify(squareModel(false))));
    const nt = await levels(client, "catdoc_validate_natural_transformation", { id: "eta" });
    expect(nt.minimal).toMatchObject({ scope: { kind: "naturalTransformation", id: "eta" }, isValid: true, countsByCode: { NT_SQUARE_OPEN: 1 } });
    expect(nt.minimal.warnings).toEqual([{ code: "NT_SQUARE_OPEN", naturalTransformationId: "eta", categoryId: "C", morphismId: "f", objectIds: ["a", "b"] }]);
    expect(await call(client, "catdoc_validate_functor", { functorId: "F" })).toMatchObject({ scope: { kind: "functor", id: "F" }, isValid: true, summary: { functorsChecked: 1 } });
    expect(await call(client, "catdoc_validate_category", { categoryId: "D" })).toMatchObject({ isValid: true, summary: { categoriesChecked: 1 } });

    const closed = await connect(await writeProject(await tempDir(), stringify(squareModel(true))));
    expect(await call(closed, "catdoc_validate_natural_transformation", { id: "eta" })).toMatchObject({ isValid: true, warnings: [] });
  });

  it("reports a broken functor as isValid false", async () => {
    const model = validModel();
    const F = model.functors[0];
    if (F === undefined) throw new Error("fixture");
    F.morphismMapping["f"] = "q";
    const client = await connect(await writeProject(await tempDir(), stringify(model)));
    const result = await call(client, "catdoc_validate_functor", { functorId: "F", response_level: "standard" });
    expect(result).toMatchObject({ isValid: false, countsByCode: { FUNCTOR_MORPHISM_MISMATCH: 1 } });
    expect(result.errors).toEqual([expect.objectContaining({ code: "FUNCTOR_MORPHISM_MISMATCH", functorId: "F", morphismId: "f" })]);
  });
});
