/**
 * F(g∘f) = F(g)∘F(f), checked against exact composites (composites.ts) on both sides: for every
 * composable pair of non-identity arrows f, g of C whose composite h = g∘f is settled (declared,
 * or the only arrow), F(h) must be the composite of F(f) and F(g) in D — the other image when
 * one of them is an identity, else the declared or only arrow F(A) → F(C). A pair whose images
 * are unmapped, unknown or misplaced is skipped: those mappings are reported once, by the
 * mapping checks (functors.ts). One wrong F(h) is one FUNCTOR_COMPOSITION however many pairs
 * compose to h; an ambiguous F(g)∘F(f) is FUNCTOR_COMPOSITION_AMBIGUOUS (once per h).
 */
import type { Functor, Morphism } from "../model.js";
import type { CategoryIndex } from "../project-index.js";
import { compositesOf, isIdentityIn, resolveComposite, settledComposites } from "./composites.js";
import type { IssueCollector } from "./issues.js";

interface Finding {
  h: Morphism;
  image: Morphism;
  pairs: [Morphism, Morphism][];
  /** FUNCTOR_COMPOSITION: the composite of the images; FUNCTOR_COMPOSITION_AMBIGUOUS: the candidates. */
  expected: Morphism | readonly Morphism[];
}

export function checkFunctorComposition(functor: Functor, source: CategoryIndex, target: CategoryIndex, out: IssueCollector): void {
  const findings = new Map<string, Finding>();
  const inTarget = compositesOf(target);
  /** The image of a morphism when it is a morphism of D placed at the images of its ends. */
  const imageOf = (morphism: Morphism): Morphism | undefined => {
    const imageId = functor.morphismMapping[morphism.id];
    const image = imageId === undefined ? undefined : target.morphisms.get(imageId);
    if (image === undefined) return undefined;
    const from = functor.objectMapping[morphism.source];
    const to = functor.objectMapping[morphism.target];
    return image.source === from && image.target === to ? image : undefined;
  };

  const settled = settledComposites(source);
  for (let i = 0; i < settled.length; i += 3) {
    const f = settled[i] as Morphism;
    const g = settled[i + 1] as Morphism;
    const h = settled[i + 2] as Morphism;
    const Ff = imageOf(f);
    const Fh = Ff === undefined ? undefined : imageOf(h);
    const Fg = Fh === undefined ? undefined : imageOf(g);
    if (Ff === undefined || Fh === undefined || Fg === undefined) continue;
    let expected: Morphism | readonly Morphism[];
    if (isIdentityIn(target, Ff)) expected = Fg;
    else if (isIdentityIn(target, Fg)) expected = Ff;
    else {
      const imageComposite = resolveComposite(inTarget, Ff, Fg);
      if (imageComposite === undefined) continue; // F(h) itself goes F(A) → F(C); unreachable
      expected = imageComposite;
    }
    if (!Array.isArray(expected) && (expected as Morphism).id === Fh.id) continue;
    const found = findings.get(h.id);
    if (found === undefined) findings.set(h.id, { h, image: Fh, pairs: [[f, g]], expected });
    else found.pairs.push([f, g]);
  }
  for (const { h, image, pairs, expected } of findings.values()) report(functor, source, h, image, pairs, expected, out);
}

function report(
  functor: Functor,
  source: CategoryIndex,
  h: Morphism,
  image: Morphism,
  pairs: [Morphism, Morphism][],
  expected: Morphism | readonly Morphism[],
  out: IssueCollector,
): void {
  const [f, g] = pairs[0] as [Morphism, Morphism];
  const ids = {
    functorId: functor.id,
    categoryId: source.category.id,
    morphismId: h.id,
    morphismIds: [f.id, g.id],
    pairs: pairs.length > 1 ? pairs.map(([a, b]) => [a.id, b.id]) : undefined,
  };
  const composed = pairs.map(([a, b]) => `${b.id}∘${a.id}`).join(" = ");
  const Ff = functor.morphismMapping[f.id] ?? "";
  const Fg = functor.morphismMapping[g.id] ?? "";
  if (Array.isArray(expected)) {
    const names = (expected as readonly Morphism[]).map((m) => `'${m.id}'`).join(", ");
    out.add(
      "FUNCTOR_COMPOSITION_AMBIGUOUS",
      `Functor '${functor.id}' maps '${h.id}' = ${composed} to '${image.id}', but F(${g.id})∘F(${f.id}) = ${Fg}∘${Ff} (${image.source} → ${image.target}) could be any of ${names}; declare composite: [${Ff}, ${Fg}] on one of them`,
      { ...ids, candidateIds: (expected as readonly Morphism[]).map((m) => m.id) },
    );
    return;
  }
  const composite = expected as Morphism;
  out.add(
    "FUNCTOR_COMPOSITION",
    `Functor '${functor.id}' does not preserve composition: F(${h.id}) = '${image.id}', but '${h.id}' = ${composed} and F(${g.id})∘F(${f.id}) = ${Fg}∘${Ff} = '${composite.id}'`,
    { ...ids, candidateIds: [composite.id] },
  );
}
