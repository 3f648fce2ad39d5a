/** Test helpers: fixture paths, temporary projects, and small models built in code. */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import type { CatDocModel } from "../../src/domain/index.js";

/** The original CatDoc tool's examples and fixtures (MIT, see its LICENSE). */
export const ORIGINAL = fileURLToPath(new URL("../fixtures/catdoc-original/", import.meta.url));

export function originalFile(relative: string): Promise<string> {
  return readFile(join(ORIGINAL, relative), "utf8");
}

/** Temporary folders removed after each test of the file that calls this. */
export function useTempDirs(): (prefix?: string) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async (prefix = "catdoc-") => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}

/** Writes `.catdoc/category.yaml` (and optionally config.yaml and other files) under `root`. */
export async function writeProject(
  root: string,
  categoryYaml: string,
  extra: { config?: string; files?: Record<string, string> } = {},
): Promise<string> {
  await mkdir(join(root, ".catdoc"), { recursive: true });
  await writeFile(join(root, ".catdoc", "category.yaml"), categoryYaml);
  if (extra.config !== undefined) await writeFile(join(root, ".catdoc", "config.yaml"), extra.config);
  for (const [path, text] of Object.entries(extra.files ?? {})) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

/** An example of the original tool laid out as a project: docs/ as is, category.yaml in .catdoc/. */
export async function copyExample(root: string, example: "math-docs" | "dev-project"): Promise<string> {
  const from = join(ORIGINAL, "examples", example);
  await cp(join(from, "docs"), join(root, "docs"), { recursive: true });
  return writeProject(root, await readFile(join(from, "category.yaml"), "utf8"));
}

const identity = (object: string) => ({
  id: `id-${object}`,
  name: `id_${object}`,
  source: object,
  target: object,
  metadata: { isIdentity: true },
});

/**
 * A valid project with no warnings: C (a → b → c, with a → c) and D (x → y → z, with x → z),
 * functors F and G: C → D mapping a, b, c to x, y, z, and η: F ⇒ G made of identities.
 */
export function validModel(): CatDocModel {
  const mapping = {
    objectMapping: { a: "x", b: "y", c: "z" },
    morphismMapping: { f: "p", g: "q", h: "r", "id-a": "id-x", "id-b": "id-y", "id-c": "id-z" },
  };
  return {
    categories: [
      {
        id: "C",
        name: "Source",
        objects: ["a", "b", "c"].map((id) => ({ id, title: `Object ${id}`, domain: "test" })),
        morphisms: [
          { id: "f", name: "f", source: "a", target: "b" },
          { id: "g", name: "g", source: "b", target: "c" },
          { id: "h", name: "h", source: "a", target: "c" },
          identity("a"),
          identity("b"),
          identity("c"),
        ],
      },
      {
        id: "D",
        name: "Target",
        objects: ["x", "y", "z"].map((id) => ({ id, title: `Object ${id}`, domain: "test" })),
        morphisms: [
          { id: "p", name: "p", source: "x", target: "y" },
          { id: "q", name: "q", source: "y", target: "z" },
          { id: "r", name: "r", source: "x", target: "z" },
          identity("x"),
          identity("y"),
          identity("z"),
        ],
      },
    ],
    functors: [
      { id: "F", name: "F", sourceCategory: "C", targetCategory: "D", ...structuredClone(mapping) },
      { id: "G", name: "G", sourceCategory: "C", targetCategory: "D", ...structuredClone(mapping) },
    ],
    naturalTransformations: [
      { id: "eta", name: "η", sourceFunctor: "F", targetFunctor: "G", components: { a: "id-x", b: "id-y", c: "id-z" } },
    ],
  };
}

/**
 * One naturality square: C has f: a → b; D has F(f) = p: x → y, G(f) = p2: x2 → y2,
 * η_a: x → x2, η_b: y → y2, and (with `diagonal`) d: x → y2, the arrow both sides compose to.
 */
export function squareModel(diagonal: boolean): CatDocModel {
  const d = diagonal ? [{ id: "d", name: "d", source: "x", target: "y2" }] : [];
  return {
    categories: [
      {
        id: "C",
        name: "C",
        objects: ["a", "b"].map((id) => ({ id, title: id, domain: "test" })),
        morphisms: [{ id: "f", name: "f", source: "a", target: "b" }, identity("a"), identity("b")],
      },
      {
        id: "D",
        name: "D",
        objects: ["x", "y", "x2", "y2"].map((id) => ({ id, title: id, domain: "test" })),
        morphisms: [
          { id: "p", name: "p", source: "x", target: "y" },
          { id: "p2", name: "p2", source: "x2", target: "y2" },
          { id: "eta-a", name: "η_a", source: "x", target: "x2" },
          { id: "eta-b", name: "η_b", source: "y", target: "y2" },
          ...d,
          ...["x", "y", "x2", "y2"].map(identity),
        ],
      },
    ],
    functors: [
      {
        id: "F",
        name: "F",
        sourceCategory: "C",
        targetCategory: "D",
        objectMapping: { a: "x", b: "y" },
        morphismMapping: { f: "p", "id-a": "id-x", "id-b": "id-y" },
      },
      {
        id: "G",
        name: "G",
        sourceCategory: "C",
        targetCategory: "D",
        objectMapping: { a: "x2", b: "y2" },
        morphismMapping: { f: "p2", "id-a": "id-x2", "id-b": "id-y2" },
      },
    ],
    naturalTransformations: [{ id: "eta", name: "η", sourceFunctor: "F", targetFunctor: "G", components: { a: "eta-a", b: "eta-b" } }],
  };
}
