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
    // minimal: the verdict and the counts; the warnings come at standard.
    expect(minimal).toEqual({
      isValid: true,
      summary: { categoriesChecked: 2, functorsChecked: 1, naturalTransformationsChecked: 0, totalErrors: 0, totalWarnings: 3 },
      countsByCode: { MISSING_COMPOSITION: 3 },
      errors: [],
      truncated: false,
    });
    expect(standard).toMatchObject({ scope: { kind: "project" }, offset: 0 });
    expect(standard.warnings).toEqual([
      {
        code: "MISSING_COMPOSITION",
        categoryId: "algebra",
        objectIds: ["sets", "groups", "rings"],
        morphismIds: ["set-to-group", "group-to-ring"],
        message: "Missing composition: group-to-ring∘set-to-group (sets → rings)",
      },
      {
        code: "MISSING_COMPOSITION",
        categoryId: "algebra",
        objectIds: ["groups", "rings", "fields"],
        morphismIds: ["group-to-ring", "ring-to-field"],
        message: "Missing composition: ring-to-field∘group-to-ring (groups → fields)",
      },
      {
        code: "MISSING_COMPOSITION",
        categoryId: "algebra",
        objectIds: ["groups", "rings", "modules"],
        morphismIds: ["group-to-ring", "ring-to-module"],
        message: "Missing composition: ring-to-module∘group-to-ring (groups → modules)",
      },
    ]);
    // full: every check the project scope runs, with its severity and meaning.
    const checks = full.checks as Record<string, string>;
    expect(Object.keys(checks)).toHaveLength(26); // 19, then the composite, composition and ambiguity checks (issue 17 item 4)
    expect(checks).toMatchObject({
      SUSPECT_LINK: expect.stringMatching(/^warning: A reviewed link/),
      MISSING_COMPOSITION: expect.stringMatching(/^warning: .*composable/),
      MISSING_IDENTITY: expect.stringMatching(/^error: /),
    });
    expect((full.warnings as unknown[])[0]).toMatchObject({ severity: "warning" });
  });

  it("finds dev-project valid, and validates one category", async () => {
    const { client } = await example("dev-project");
    expect(await call(client, "catdoc_validate")).toMatchObject({
      isValid: true,
      errors: [],
      summary: { categoriesChecked: 5, functorsChecked: 4 },
    });
    const { client: math } = await example("math-docs");
    expect(await call(math, "catdoc_validate", { categoryId: "topology", response_level: "standard" })).toMatchObject({
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
    expect((result.errors as { code: string; message: string }[])[0]).toMatchObject({
      code: "MISSING_IDENTITY",
      message: expect.stringContaining("x"),
    });
    const rest = await call(client, "catdoc_validate", { limit: 1000, offset: 2 });
    expect(rest.errors).toHaveLength(summary.totalErrors - 2);
    expect(rest.truncated).toBe(false);
    // minimal lists the errors (code and ids), not the warnings.
    const minimal = await call(client, "catdoc_validate", { limit: 2 });
    expect(minimal).not.toHaveProperty("warnings");
    expect((minimal.errors as Record<string, unknown>[])[0]).toEqual({
      code: "MISSING_IDENTITY",
      categoryId: expect.any(String),
      objectId: expect.any(String),
    });
  });
});

describe("validate one category, functor or natural transformation", () => {
  it("checks each on its own", async () => {
    const client = await connect(await writeProject(await tempDir(), stringify(squareModel(false))));
    const nt = await levels(client, "catdoc_validate_natural_transformation", { id: "eta" });
    expect(nt.minimal).toMatchObject({ isValid: true, countsByCode: { NT_SQUARE_OPEN: 1 } });
    expect(nt.standard).toMatchObject({ scope: { kind: "naturalTransformation", id: "eta" } });
    expect(nt.standard.warnings).toEqual([
      {
        code: "NT_SQUARE_OPEN",
        naturalTransformationId: "eta",
        categoryId: "C",
        morphismId: "f",
        objectIds: ["a", "b"],
        message: expect.any(String),
      },
    ]);
    expect(Object.keys(nt.full.checks as object).sort()).toEqual([
      "DUPLICATE_ID",
      "NT_COMPONENT_TYPE",
      "NT_FUNCTOR_MISMATCH",
      "NT_MISSING_COMPONENT",
      "NT_SQUARE_OPEN",
      "NT_UNKNOWN_COMPONENT",
      "NT_UNKNOWN_FUNCTOR",
    ]);
    const functor = await levels(client, "catdoc_validate_functor", { functorId: "F" });
    expect(functor.minimal).toEqual({
      isValid: true,
      summary: { categoriesChecked: 0, functorsChecked: 1, naturalTransformationsChecked: 0, totalErrors: 0, totalWarnings: 0 },
      countsByCode: {},
      errors: [],
      truncated: false,
    });
    expect(functor.standard).toMatchObject({ scope: { kind: "functor", id: "F" }, warnings: [] });
    expect(Object.keys(functor.full.checks as object)).toContain("FUNCTOR_IDENTITY_NOT_PRESERVED");
    expect(await call(client, "catdoc_validate_category", { categoryId: "D" })).toMatchObject({
      isValid: true,
      summary: { categoriesChecked: 1 },
    });

    const closed = await connect(await writeProject(await tempDir(), stringify(squareModel(true))));
    expect(await call(closed, "catdoc_validate_natural_transformation", { id: "eta", response_level: "standard" })).toMatchObject({
      isValid: true,
      warnings: [],
    });
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
