/**
 * Every validation code: a model that triggers it (with the ids it must name) and a model that
 * does not. The valid model of helpers.ts has no errors and no warnings at all.
 */
import { describe, expect, it } from "vitest";
import { VALIDATION_CODES, indexProject, validateProject } from "../../src/domain/index.js";
import type { CatDocModel, ValidationCode, ValidationIssue } from "../../src/domain/index.js";
import { findSuspectLinks, modelDocumentHashes, withSuspectLinks } from "../../src/domain/change-impact/index.js";
import { squareModel, validModel } from "./helpers.js";

/** The laws, plus the suspect links of a model whose documents are its titles (what `catdoc validate` adds). */
function validate(model: CatDocModel) {
  const index = indexProject(model);
  return withSuspectLinks(validateProject(index), findSuspectLinks(index, modelDocumentHashes(model)));
}

function issues(model: CatDocModel, code: ValidationCode): ValidationIssue[] {
  const report = validate(model);
  return [...report.errors, ...report.warnings].filter((issue) => issue.code === code);
}

function edited(change: (model: CatDocModel) => void): CatDocModel {
  const model = validModel();
  change(model);
  return model;
}

const C = (m: CatDocModel) => m.categories[0]!;
/** An object's document hash when its document is its title (change-impact/document-hashes.ts). */
const hashOf = (title: string) =>
  modelDocumentHashes({
    categories: [{ id: "X", name: "X", objects: [{ id: "o", title, domain: "d" }], morphisms: [] }],
    functors: [],
    naturalTransformations: [],
  }).get("o")!.hash;
const D = (m: CatDocModel) => m.categories[1]!;
/** The valid model with a second arrow r2: x → z parallel to r = q∘p (declared so with `declared`). */
function parallel(declared: boolean): CatDocModel {
  return edited((m) => {
    D(m).morphisms.push({ id: "r2", name: "r2", source: "x", target: "z" });
    if (declared) D(m).morphisms.find((x) => x.id === "r")!.composite = ["p", "q"];
  });
}
const F = (m: CatDocModel) => m.functors[0]!;
const eta = (m: CatDocModel) => m.naturalTransformations[0]!;

interface Case {
  code: ValidationCode;
  failing: CatDocModel;
  expected: Partial<ValidationIssue>;
  /** A model close to the failing one that passes this check (default: the valid model). */
  passing?: CatDocModel;
}

const cases: Case[] = [
  {
    code: "DUPLICATE_ID",
    failing: edited((m) => D(m).objects.push({ id: "a", title: "again", domain: "test" })),
    expected: { severity: "error", categoryId: "D", objectId: "a" },
  },
  {
    code: "MISSING_IDENTITY",
    failing: edited((m) => {
      C(m).morphisms = C(m).morphisms.filter((x) => x.id !== "id-b");
      delete F(m).morphismMapping["id-b"];
      delete m.functors[1]!.morphismMapping["id-b"];
    }),
    expected: { severity: "error", categoryId: "C", objectId: "b" },
    // Unmarked, but named id-b: the fallback of the identity rule.
    passing: edited((m) => {
      delete C(m).morphisms.find((x) => x.id === "id-b")!.metadata;
    }),
  },
  {
    code: "UNDEFINED_ENDPOINT",
    failing: edited((m) => C(m).morphisms.push({ id: "k", name: "k", source: "a", target: "nowhere" })),
    expected: { severity: "error", categoryId: "C", morphismId: "k", objectId: "nowhere" },
  },
  {
    code: "FUNCTOR_UNKNOWN_CATEGORY",
    failing: edited((m) => (F(m).targetCategory = "nope")),
    expected: { severity: "error", functorId: "F", categoryId: "nope" },
  },
  {
    code: "FUNCTOR_UNMAPPED_OBJECT",
    failing: edited((m) => delete F(m).objectMapping["c"]),
    expected: { severity: "error", functorId: "F", categoryId: "C", objectId: "c" },
  },
  {
    code: "FUNCTOR_UNKNOWN_OBJECT",
    failing: edited((m) => (F(m).objectMapping["c"] = "nope")),
    expected: { severity: "error", functorId: "F", categoryId: "D", objectId: "c" },
  },
  {
    code: "FUNCTOR_UNMAPPED_MORPHISM",
    failing: edited((m) => delete F(m).morphismMapping["h"]),
    expected: { severity: "error", functorId: "F", categoryId: "C", morphismId: "h" },
  },
  {
    code: "FUNCTOR_UNKNOWN_MORPHISM",
    failing: edited((m) => (F(m).morphismMapping["h"] = "nope")),
    expected: { severity: "error", functorId: "F", categoryId: "D", morphismId: "h" },
  },
  {
    code: "FUNCTOR_MORPHISM_MISMATCH",
    failing: edited((m) => (F(m).morphismMapping["f"] = "q")),
    expected: { severity: "error", functorId: "F", morphismId: "f", morphismIds: ["f", "q"] },
  },
  {
    code: "FUNCTOR_IDENTITY_NOT_PRESERVED",
    failing: edited((m) => {
      D(m).morphisms.push({ id: "loop", name: "loop", source: "x", target: "x" });
      F(m).morphismMapping["id-a"] = "loop";
    }),
    expected: { severity: "error", functorId: "F", objectId: "a", morphismId: "id-a", morphismIds: ["id-a", "loop"] },
  },
  {
    code: "NT_UNKNOWN_FUNCTOR",
    failing: edited((m) => (eta(m).targetFunctor = "nope")),
    expected: { severity: "error", naturalTransformationId: "eta", functorId: "nope" },
  },
  {
    code: "NT_FUNCTOR_MISMATCH",
    failing: edited((m) => {
      m.functors.push({
        id: "H",
        name: "H",
        sourceCategory: "C",
        targetCategory: "C",
        objectMapping: { a: "a", b: "b", c: "c" },
        morphismMapping: Object.fromEntries(C(m).morphisms.map((x) => [x.id, x.id])),
      });
      eta(m).targetFunctor = "H";
    }),
    expected: { severity: "error", naturalTransformationId: "eta", functorId: "F" },
  },
  {
    code: "NT_MISSING_COMPONENT",
    failing: edited((m) => delete eta(m).components["c"]),
    expected: { severity: "error", naturalTransformationId: "eta", categoryId: "C", objectId: "c" },
  },
  {
    code: "NT_UNKNOWN_COMPONENT",
    failing: edited((m) => (eta(m).components["c"] = "nope")),
    expected: { severity: "error", naturalTransformationId: "eta", categoryId: "D", objectId: "c", morphismId: "nope" },
  },
  {
    code: "NT_COMPONENT_TYPE",
    failing: edited((m) => (eta(m).components["c"] = "r")),
    expected: { severity: "error", naturalTransformationId: "eta", objectId: "c", morphismId: "r" },
  },
  {
    code: "EMPTY_CATEGORY",
    failing: edited((m) => m.categories.push({ id: "E", name: "Empty", objects: [], morphisms: [] })),
    expected: { severity: "warning", categoryId: "E" },
  },
  {
    code: "MISSING_COMPOSITION",
    failing: edited((m) => {
      C(m).morphisms = C(m).morphisms.filter((x) => x.id !== "h");
      for (const functor of m.functors) delete functor.morphismMapping["h"];
    }),
    expected: {
      severity: "warning",
      categoryId: "C",
      message: "Missing composition: g∘f (a → c)",
      morphismIds: ["f", "g"],
      objectIds: ["a", "b", "c"],
    },
  },
  {
    code: "AMBIGUOUS_COMPOSITION",
    failing: parallel(false),
    expected: {
      severity: "warning",
      categoryId: "D",
      morphismIds: ["p", "q"],
      objectIds: ["x", "y", "z"],
      candidateIds: ["r", "r2"],
      message: "Ambiguous composition: q∘p (x → z) could be any of 'r', 'r2'; declare composite: [p, q] on one of them",
    },
    passing: parallel(true),
  },
  {
    code: "FUNCTOR_COMPOSITION",
    // q∘p is declared to be r; F maps h = g∘f to the parallel r2.
    failing: edited((m) => {
      Object.assign(m, parallel(true));
      F(m).morphismMapping["h"] = "r2";
    }),
    expected: { severity: "error", functorId: "F", categoryId: "C", morphismId: "h", morphismIds: ["f", "g"], candidateIds: ["r"] },
    passing: parallel(true),
  },
  {
    code: "FUNCTOR_COMPOSITION_AMBIGUOUS",
    failing: parallel(false),
    expected: { severity: "warning", functorId: "F", morphismId: "h", morphismIds: ["f", "g"], candidateIds: ["r", "r2"] },
    passing: parallel(true),
  },
  {
    code: "COMPOSITE_UNKNOWN_MORPHISM",
    failing: edited((m) => (C(m).morphisms.find((x) => x.id === "h")!.composite = ["f", "nope"])),
    expected: { severity: "error", categoryId: "C", morphismId: "h", morphismIds: ["f", "nope"] },
    passing: edited((m) => (C(m).morphisms.find((x) => x.id === "h")!.composite = ["f", "g"])),
  },
  {
    code: "COMPOSITE_NOT_COMPOSABLE",
    failing: edited((m) => (C(m).morphisms.find((x) => x.id === "h")!.composite = ["g", "f"])),
    expected: { severity: "error", categoryId: "C", morphismId: "h", morphismIds: ["g", "f"] },
  },
  {
    code: "COMPOSITE_ENDPOINT_MISMATCH",
    failing: edited((m) => (C(m).morphisms.find((x) => x.id === "f")!.composite = ["f", "g"])),
    expected: { severity: "error", categoryId: "C", morphismId: "f", morphismIds: ["f", "g"] },
  },
  {
    code: "COMPOSITE_CONFLICT",
    failing: edited((m) => {
      C(m).morphisms.find((x) => x.id === "h")!.composite = ["f", "g"];
      C(m).morphisms.push({ id: "h2", name: "h2", source: "a", target: "c", composite: ["f", "g"] });
      for (const functor of m.functors) functor.morphismMapping["h2"] = "r";
    }),
    expected: { severity: "error", categoryId: "C", morphismId: "h2", morphismIds: ["h", "h2"] },
  },
  {
    code: "SUSPECT_LINK",
    // f was reviewed when b's document (its title here) read differently.
    failing: edited(
      (m) => (C(m).morphisms.find((x) => x.id === "f")!.reviewed = { source: hashOf("Object a"), target: hashOf("b before") }),
    ),
    expected: { severity: "warning", categoryId: "C", morphismId: "f", linkId: "f", documentIds: ["b"] },
    passing: edited(
      (m) => (C(m).morphisms.find((x) => x.id === "f")!.reviewed = { source: hashOf("Object a"), target: hashOf("Object b") }),
    ),
  },
  {
    code: "NT_SQUARE_OPEN",
    failing: squareModel(false),
    expected: { severity: "warning", naturalTransformationId: "eta", categoryId: "C", morphismId: "f", objectIds: ["a", "b"] },
    passing: squareModel(true),
  },
];

describe("validation codes", () => {
  it("the valid model has no errors and no warnings", () => {
    const report = validate(validModel());
    expect(report).toEqual({
      isValid: true,
      errors: [],
      warnings: [],
      summary: { categoriesChecked: 2, functorsChecked: 2, naturalTransformationsChecked: 1, totalErrors: 0, totalWarnings: 0 },
    });
  });

  it("every contract code has a case here", () => {
    expect(cases.map((c) => c.code).sort()).toEqual([...VALIDATION_CODES].sort());
  });

  it.each(cases)("$code: reported with its ids when broken, absent when not", ({ code, failing, expected, passing }) => {
    const found = issues(failing, code);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toContainEqual(expect.objectContaining({ code, ...expected }));
    for (const issue of found) expect(issue.message.length).toBeGreaterThan(10);
    expect(issues(passing ?? validModel(), code)).toEqual([]);
    if (expected.severity === "error") expect(validate(failing).isValid).toBe(false);
  });

  it("DUPLICATE_ID also covers categories, functors and natural transformations", () => {
    const model = edited((m) => {
      m.categories.push({ id: "C", name: "again", objects: [], morphisms: [] });
      m.functors.push(structuredClone(F(m)));
      m.naturalTransformations.push(structuredClone(eta(m)));
    });
    const found = issues(model, "DUPLICATE_ID");
    expect(found).toContainEqual(expect.objectContaining({ categoryId: "C" }));
    expect(found).toContainEqual(expect.objectContaining({ functorId: "F" }));
    expect(found).toContainEqual(expect.objectContaining({ naturalTransformationId: "eta" }));
    // One item per repeated definition, not one per definition.
    expect(found).toHaveLength(3);
  });

  it("an endomorphism marked isIdentity wins over id-<object>, and a marked non-endomorphism is no identity", () => {
    const model = edited((m) => {
      const c = C(m);
      delete c.morphisms.find((x) => x.id === "id-a")!.metadata;
      c.morphisms.push({ id: "marked-a", name: "one", source: "a", target: "a", metadata: { isIdentity: true } });
      // id-a is now unmarked, so the marked endomorphism is a's identity and id-a an ordinary arrow.
      for (const functor of m.functors) functor.morphismMapping["marked-a"] = "id-x";
      c.morphisms.find((x) => x.id === "id-b")!.target = "c"; // id-b: b → c is no identity
      delete c.morphisms.find((x) => x.id === "id-c")!.metadata;
      c.morphisms.push({ id: "fake", name: "fake", source: "c", target: "b", metadata: { isIdentity: true } });
    });
    const index = indexProject(model);
    const category = index.categories.get("C")!;
    expect(category.identities.get("a")?.id).toBe("marked-a");
    expect(category.identities.has("b")).toBe(false);
    expect(category.identities.get("c")?.id).toBe("id-c");
    expect(issues(model, "MISSING_IDENTITY").map((i) => i.objectId)).toEqual(["b"]);
  });

  it("reports items in file order: categories, then functors, then natural transformations", () => {
    const model = edited((m) => {
      eta(m).targetFunctor = "nope";
      F(m).targetCategory = "nope";
      C(m).morphisms.push({ id: "k", name: "k", source: "a", target: "nowhere" });
    });
    // G (functors[1]) does not map the new morphism k.
    expect(validate(model).errors.map((e) => e.code)).toEqual([
      "UNDEFINED_ENDPOINT",
      "FUNCTOR_UNKNOWN_CATEGORY",
      "FUNCTOR_UNMAPPED_MORPHISM",
      "NT_UNKNOWN_FUNCTOR",
    ]);
  });
});
