/**
 * Validation of a generated project (the benchmark's generator at a smaller size): the indexed
 * checks agree with a plain quadratic reference, and run well inside a generous bound.
 */
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { indexProject, validateProject } from "../../src/domain/index.js";
import type { CatDocModel } from "../../src/domain/index.js";
import { generateProject } from "../../src/testing/generate-project.js";

const options = { objects: 240, morphisms: 1200, functors: 3, naturalTransformations: 1, seed: 7 };

/**
 * MISSING_COMPOSITION by the definition, pair by pair over all morphisms (quadratic): one item per
 * missing arrow A → C, naming its pairs in file order.
 */
function referenceMissingCompositions(model: CatDocModel): string[] {
  const found: string[] = [];
  for (const category of model.categories) {
    const all = category.morphisms;
    const missing = new Map<string, string[]>();
    for (const f of all) {
      for (const g of all) {
        if (f.target !== g.source || f.source === f.target || g.source === g.target) continue;
        if (all.some((m) => m.source === f.source && m.target === g.target)) continue;
        const key = `${f.source} → ${g.target}`;
        missing.set(key, [...(missing.get(key) ?? []), `${g.id}∘${f.id}`]);
      }
    }
    for (const [ends, pairs] of missing) found.push(`Missing composition: ${pairs.join(", ")} (${ends})`);
  }
  return found.sort();
}

describe("validation of a generated project", () => {
  const model = generateProject(options);

  it("generates deterministically the requested sizes", () => {
    expect(generateProject(options)).toEqual(model);
    expect(model.categories).toHaveLength(3);
    expect(model.categories.map((c) => [c.objects.length, c.morphisms.length])).toEqual([
      [80, 400],
      [80, 400],
      [80, 400],
    ]);
    expect(model.functors).toHaveLength(4); // 3 + the twin of F0 for the natural transformation
    expect(model.naturalTransformations).toHaveLength(1);
  });

  it("is valid, and its composition warnings are exactly the reference's", () => {
    const started = performance.now();
    const report = validateProject(indexProject(model));
    const elapsed = performance.now() - started;
    expect(report.errors).toEqual([]);
    expect(report.summary).toMatchObject({ categoriesChecked: 3, functorsChecked: 4, naturalTransformationsChecked: 1 });
    const missing = report.warnings
      .filter((w) => w.code === "MISSING_COMPOSITION")
      .map((w) => w.message)
      .sort();
    expect(missing.length).toBeGreaterThan(100);
    expect(missing).toEqual(referenceMissingCompositions(model));
    // η's components are identities, so every square closes on F(f) itself.
    expect(report.warnings.filter((w) => w.code === "NT_SQUARE_OPEN")).toEqual([]);
    expect(elapsed).toBeLessThan(5_000); // a sanity bound only; the benchmark measures
  });

  it("finds a single broken mapping among thousands", () => {
    const broken = structuredClone(model);
    const functor = broken.functors[1]!;
    const [first] = Object.keys(functor.morphismMapping).filter((id) => !id.startsWith("id-"));
    functor.morphismMapping[first!] = Object.values(functor.morphismMapping).find((id) => id.startsWith("id-"))!;
    const report = validateProject(indexProject(broken));
    expect(report.errors.map((e) => [e.code, e.functorId, e.morphismId])).toEqual([["FUNCTOR_MORPHISM_MISMATCH", "F1", first]]);
  });
});
