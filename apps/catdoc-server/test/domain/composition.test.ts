/**
 * Exact composition (issue 17 item 4): declared composites settle parallel arrows, functors must
 * preserve the composites so resolved, and each violation is reported once.
 */
import { describe, expect, it } from "vitest";
import { indexProject, validateProject } from "../../src/domain/index.js";
import type { CatDocModel, ValidationIssue } from "../../src/domain/index.js";
import { validModel } from "./helpers.js";

function edited(change: (model: CatDocModel) => void): CatDocModel {
  const model = validModel();
  change(model);
  return model;
}

const D = (m: CatDocModel) => m.categories[1]!;
const codes = (issues: ValidationIssue[]) => issues.map((issue) => issue.code);

/** The issue's case: k1, k2: x → z in D, both candidates for q∘p; F(h) for h = g∘f is one of them. */
function parallelArrows(options: { declared?: "k1" | "k2"; image: "k1" | "k2" }): CatDocModel {
  return edited((m) => {
    const d = D(m);
    d.morphisms = d.morphisms.filter((x) => x.id !== "r");
    d.morphisms.push({ id: "k1", name: "k1", source: "x", target: "z" }, { id: "k2", name: "k2", source: "x", target: "z" });
    if (options.declared !== undefined) d.morphisms.find((x) => x.id === options.declared)!.composite = ["p", "q"];
    for (const functor of m.functors) functor.morphismMapping["h"] = options.image;
  });
}

describe("exact composition", () => {
  it("a functor mapping g∘f to the wrong one of two parallel arrows is an error", () => {
    const report = validateProject(indexProject(parallelArrows({ declared: "k1", image: "k2" })));
    expect(report.isValid).toBe(false);
    // One item per functor (F and G map alike), naming the arrow F(h) should be.
    expect(report.errors).toEqual([
      expect.objectContaining({ code: "FUNCTOR_COMPOSITION", functorId: "F", morphismId: "h", candidateIds: ["k1"] }),
      expect.objectContaining({ code: "FUNCTOR_COMPOSITION", functorId: "G", morphismId: "h", candidateIds: ["k1"] }),
    ]);
    expect(report.errors[0]!.message).toBe(
      "Functor 'F' does not preserve composition: F(h) = 'k2', but 'h' = g∘f and F(g)∘F(f) = q∘p = 'k1'",
    );
    expect(report.warnings).toEqual([]);
  });

  it("the declared composite makes the same shape pass", () => {
    const report = validateProject(indexProject(parallelArrows({ declared: "k2", image: "k2" })));
    expect(report).toMatchObject({ isValid: true, errors: [], warnings: [] });
  });

  it("without a declaration the category says the composite is ambiguous, and the functor that it cannot check it", () => {
    const report = validateProject(indexProject(parallelArrows({ image: "k2" })));
    expect(report.isValid).toBe(true);
    expect(codes(report.warnings)).toEqual(["AMBIGUOUS_COMPOSITION", "FUNCTOR_COMPOSITION_AMBIGUOUS", "FUNCTOR_COMPOSITION_AMBIGUOUS"]);
    expect(report.warnings[0]).toMatchObject({ categoryId: "D", candidateIds: ["k1", "k2"] });
    expect(report.warnings[0]!.message).toContain("declare composite: [p, q] on one of them");
  });

  it("a declared composite of three arrows is checked for unknown ids, composability and ends", () => {
    const model = edited((m) => {
      const c = m.categories[0]!;
      c.objects.push({ id: "d", title: "Object d", domain: "test" });
      c.morphisms.push(
        { id: "id-d", name: "id", source: "d", target: "d", metadata: { isIdentity: true } },
        { id: "k", name: "k", source: "c", target: "d" },
        { id: "fgk", name: "fgk", source: "a", target: "d", composite: ["f", "g", "k"] },
        { id: "bad", name: "bad", source: "a", target: "d", composite: ["f", "k"] },
      );
    });
    const report = validateProject(indexProject(model));
    const composite = report.errors.filter((e) => e.code.startsWith("COMPOSITE_"));
    expect(composite).toEqual([expect.objectContaining({ code: "COMPOSITE_NOT_COMPOSABLE", morphismId: "bad", morphismIds: ["f", "k"] })]);
    expect(composite[0]!.message).toBe("Morphism 'bad' declares composite: [f, k], but 'f' ends at 'b' and 'k' starts at 'c'");
  });
});

describe("one violation, one report", () => {
  it("an object mapped outside the target is reported once, not again per morphism, identity and component", () => {
    // Before: FUNCTOR_UNKNOWN_OBJECT, then FUNCTOR_MORPHISM_MISMATCH for f, g and id-b, and NT_COMPONENT_TYPE for η_b.
    const report = validateProject(indexProject(edited((m) => (m.functors[0]!.objectMapping["b"] = "nowhere"))));
    expect(report.errors).toEqual([expect.objectContaining({ code: "FUNCTOR_UNKNOWN_OBJECT", functorId: "F", objectId: "b" })]);
  });

  it("an identity mapped to a non-endomorphism is a mismatch, not also an unpreserved identity", () => {
    const report = validateProject(indexProject(edited((m) => (m.functors[0]!.morphismMapping["id-a"] = "p"))));
    expect(codes(report.errors)).toEqual(["FUNCTOR_MORPHISM_MISMATCH"]);
  });

  it("one missing arrow A → C is one MISSING_COMPOSITION naming every pair that needs it", () => {
    const model: CatDocModel = {
      categories: [
        {
          id: "C",
          name: "C",
          objects: ["a", "b", "c", "d"].map((id) => ({ id, title: id, domain: "test" })),
          morphisms: [
            ...["a", "b", "c", "d"].map((id) => ({ id: `id-${id}`, name: "id", source: id, target: id, metadata: { isIdentity: true } })),
            { id: "ab", name: "ab", source: "a", target: "b" },
            { id: "bd", name: "bd", source: "b", target: "d" },
            { id: "ac", name: "ac", source: "a", target: "c" },
            { id: "cd", name: "cd", source: "c", target: "d" },
          ],
        },
      ],
      functors: [],
      naturalTransformations: [],
    };
    const report = validateProject(indexProject(model));
    expect(report.warnings).toEqual([
      {
        code: "MISSING_COMPOSITION",
        severity: "warning",
        message: "Missing composition: bd∘ab, cd∘ac (a → d)",
        categoryId: "C",
        morphismIds: ["ab", "bd"],
        objectIds: ["a", "b", "d"],
        pairs: [
          ["ab", "bd"],
          ["ac", "cd"],
        ],
      },
    ]);
  });

  it("a wrong F(h) is one FUNCTOR_COMPOSITION however many pairs compose to h", () => {
    // C gets a second path a → b2 → c, whose composite is h too (the only arrow a → c); F sends h to the wrong arrow.
    const model = parallelArrows({ declared: "k1", image: "k2" });
    const c = model.categories[0]!;
    c.objects.push({ id: "b2", title: "Object b2", domain: "test" });
    c.morphisms.push(
      { id: "id-b2", name: "id", source: "b2", target: "b2", metadata: { isIdentity: true } },
      { id: "f2", name: "f2", source: "a", target: "b2" },
      { id: "g2", name: "g2", source: "b2", target: "c" },
    );
    for (const functor of model.functors) {
      Object.assign(functor.objectMapping, { b2: "y" });
      Object.assign(functor.morphismMapping, { "id-b2": "id-y", f2: "p", g2: "q" });
    }
    const errors = validateProject(indexProject(model)).errors.filter((e) => e.functorId === "F");
    expect(errors).toEqual([
      expect.objectContaining({
        code: "FUNCTOR_COMPOSITION",
        morphismId: "h",
        pairs: [
          ["f", "g"],
          ["f2", "g2"],
        ],
      }),
    ]);
    expect(errors[0]!.message).toContain("'h' = g∘f = g2∘f2");
  });
});
