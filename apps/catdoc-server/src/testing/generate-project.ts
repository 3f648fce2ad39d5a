/**
 * A deterministic generator of large CatDoc projects, for tests and the benchmark
 * (`generateProject({ objects: 2000, morphisms: 10000, functors: 5 })`). Test-only code: no
 * server module imports it; it is built to dist/testing/ so bench/catdoc.mjs can use it.
 *
 * The project has `functors` categories that are copies of one random category (objects,
 * identities and random non-identity arrows); functor i maps copy i to copy i+1 (the last maps
 * back to the first), object by object and arrow by arrow. So the project is valid, every
 * functor check runs over complete mappings, and the random arrows leave realistic numbers of
 * MISSING_COMPOSITION warnings. Optional natural transformations join two copies of functor 0.
 * Titles, domains and inline content come from a small vocabulary, for search.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { seededRandom } from "@local-mcp/core";
import { stringify } from "yaml";
import type { CatDocModel, Category, Functor, NaturalTransformation } from "../domain/index.js";

export interface GenerateOptions {
  /** Objects in the whole project (split evenly over the categories). */
  objects: number;
  /** Morphisms in the whole project, identities included (at least one per object). */
  morphisms: number;
  /** Functors, and categories (one per functor; at least 1). */
  functors: number;
  /** Natural transformations between functor 0 and a copy of it (default 0). */
  naturalTransformations?: number;
  seed?: number;
}

const WORDS = [
  "algebra",
  "topology",
  "category",
  "functor",
  "morphism",
  "sheaf",
  "manifold",
  "ring",
  "group",
  "field",
  "module",
  "lattice",
  "vector",
  "tensor",
  "spectrum",
  "homology",
  "kernel",
  "limit",
  "colimit",
  "adjoint",
  "monad",
  "graph",
  "order",
  "measure",
  "integral",
  "metric",
  "space",
  "set",
  "logic",
  "proof",
];
const DOMAINS = ["mathematics", "physics", "computing", "design", "operations"];

export function generateProject(options: GenerateOptions): CatDocModel {
  const copies = Math.max(1, options.functors);
  const perCategory = Math.max(2, Math.floor(options.objects / copies));
  const arrowsPerCategory = Math.floor(options.morphisms / copies) - perCategory;
  const maxArrows = perCategory * (perCategory - 1);
  if (arrowsPerCategory < 0 || arrowsPerCategory > maxArrows) {
    throw new Error(`cannot place ${options.morphisms} morphisms over ${options.objects} objects in ${copies} categories`);
  }
  const next = seededRandom(options.seed ?? 42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

  // One random shape, copied into every category.
  const shape = new Set<string>();
  const arrows: [number, number][] = [];
  while (arrows.length < arrowsPerCategory) {
    const from = Math.floor(next() * perCategory);
    const to = Math.floor(next() * perCategory);
    if (from === to || shape.has(`${from}:${to}`)) continue;
    shape.add(`${from}:${to}`);
    arrows.push([from, to]);
  }
  const texts = Array.from({ length: perCategory }, () => ({
    title: `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`,
    domain: pick(DOMAINS),
    content: `Notes on ${pick(WORDS)} and ${pick(WORDS)}, with ${pick(WORDS)}.`,
  }));

  const object = (c: number, i: number) => `c${c}-o${i}`;
  const arrow = (c: number, k: number) => `c${c}-m${k}`;
  const identity = (c: number, i: number) => `id-${object(c, i)}`;
  const categories: Category[] = Array.from({ length: copies }, (_, c) => ({
    id: `cat-${c}`,
    name: `Category ${c}`,
    objects: texts.map((text, i) => ({
      id: object(c, i),
      title: text.title,
      domain: text.domain,
      metadata: { rank: i },
      content: text.content,
    })),
    morphisms: [
      ...texts.map((_, i) => ({
        id: identity(c, i),
        name: `id_${i}`,
        source: object(c, i),
        target: object(c, i),
        metadata: { isIdentity: true },
      })),
      ...arrows.map(([from, to], k) => ({ id: arrow(c, k), name: pick(WORDS), source: object(c, from), target: object(c, to) })),
    ],
  }));

  const functor = (id: string, from: number, to: number): Functor => ({
    id,
    name: `Functor ${id}`,
    sourceCategory: `cat-${from}`,
    targetCategory: `cat-${to}`,
    objectMapping: Object.fromEntries(texts.map((_, i) => [object(from, i), object(to, i)])),
    morphismMapping: Object.fromEntries([
      ...texts.map((_, i) => [identity(from, i), identity(to, i)]),
      ...arrows.map((_, k) => [arrow(from, k), arrow(to, k)]),
    ]),
  });
  const functors = Array.from({ length: options.functors }, (_, f) => functor(`F${f}`, f % copies, (f + 1) % copies));
  const naturalTransformations: NaturalTransformation[] = [];
  const first = functors[0];
  for (let n = 0; n < (options.naturalTransformations ?? 0) && first !== undefined; n += 1) {
    const twin = { ...functor(`F0-twin-${n}`, 0, 1 % copies) };
    functors.push(twin);
    naturalTransformations.push({
      id: `eta-${n}`,
      name: `η${n}`,
      sourceFunctor: first.id,
      targetFunctor: twin.id,
      components: Object.fromEntries(texts.map((_, i) => [object(0, i), identity(1 % copies, i)])),
    });
  }
  return { categories, functors, naturalTransformations };
}

/** Writes a generated project (`.catdoc/category.yaml`) under `root`; returns the YAML text. */
export async function writeGeneratedProject(root: string, options: GenerateOptions): Promise<string> {
  const text = stringify(generateProject(options), { lineWidth: 0 });
  await mkdir(join(root, ".catdoc"), { recursive: true });
  await writeFile(join(root, ".catdoc", "category.yaml"), text);
  return text;
}
