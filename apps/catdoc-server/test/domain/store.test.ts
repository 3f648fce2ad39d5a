/** CatDocStore: init, edits that keep comments, checks before writing, CONFLICT, dry runs. */
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CatDocParseError,
  CatDocStore,
  ProjectNotInitializedError,
  indexProject,
  loadProject,
  parseCategoryYaml,
  validateProject,
} from "../../src/domain/index.js";
import { copyExample, useTempDirs, writeProject } from "./helpers.js";

const tempDir = useTempDirs();

async function mathStore() {
  const root = await copyExample(await tempDir(), "math-docs");
  const store = new CatDocStore(root);
  const read = () => readFile(store.paths.categoryFile, "utf8");
  return { root, store, read, original: await read() };
}

/** `after` is `before` with exactly `added` lines inserted (nothing else changed). */
function insertedLines(before: string, after: string): string[] {
  const old = before.split("\n");
  const added: string[] = [];
  let i = 0;
  for (const line of after.split("\n")) {
    if (i < old.length && line === old[i]) i += 1;
    else added.push(line);
  }
  expect(i).toBe(old.length);
  return added;
}

describe("init", () => {
  it("writes a valid empty category.yaml and a config.yaml, and refuses to overwrite without force", async () => {
    const root = await tempDir();
    const store = new CatDocStore(root);
    expect(await store.isInitialized()).toBe(false);
    const result = await store.init({ projectName: "My Docs" });
    expect(result).toMatchObject({ files: [".catdoc/category.yaml", ".catdoc/config.yaml"], overwritten: false });
    const project = await store.load();
    expect(project.model).toEqual({ categories: [], functors: [], naturalTransformations: [] });
    expect(project.settings.projectName).toBe("My Docs");
    expect(validateProject(project.index).isValid).toBe(true);
    expect(await readFile(store.paths.categoryFile, "utf8")).toMatch(/^# CatDoc categories of My Docs\n/);

    await store.addCategory({ id: "main", name: "Main" });
    const edited = await readFile(store.paths.categoryFile, "utf8");
    await expect(store.init()).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await readFile(store.paths.categoryFile, "utf8")).toBe(edited);
    expect(await store.init({ force: true })).toMatchObject({ overwritten: true });
    expect((await store.load()).model.categories).toEqual([]);
  });

  it("refuses a project directory that does not exist", async () => {
    await expect(new CatDocStore(join(await tempDir(), "missing")).init()).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("edits", () => {
  it("adds an object with its identity, keeping every comment, blank line and flow list", async () => {
    const { store, read, original } = await mathStore();
    const result = await store.addObject("algebra", { id: "lattices", title: "Lattice Theory", domain: "mathematics" });
    expect(result).toMatchObject({
      written: true,
      changes: ["add object 'lattices' to category 'algebra'", "add identity 'id-lattices' to category 'algebra'"],
    });
    const text = await read();
    expect(insertedLines(original, text)).toEqual([
      "      - id: lattices",
      "        title: Lattice Theory",
      "        domain: mathematics",
      "      - id: id-lattices",
      "        name: id_lattices",
      "        source: lattices",
      "        target: lattices",
      "        metadata:",
      "          isIdentity: true",
    ]);
    expect(text).toContain("# Identity morphisms\n");
    expect(text).toContain("prerequisites: [rings, groups]");
    // The model the store keeps is what a fresh read of the file gives.
    expect(result.project.model).toEqual(parseCategoryYaml(text));
    expect(result.version).not.toBe(result.previousVersion);
    // forgetful-alg does not map the new object yet: validation says so.
    expect(validateProject(indexProject(parseCategoryYaml(text))).errors.map((e) => [e.code, e.objectId ?? e.morphismId])).toEqual([
      ["FUNCTOR_UNMAPPED_OBJECT", "lattices"],
      ["FUNCTOR_UNMAPPED_MORPHISM", "id-lattices"],
    ]);
  });

  it.each([
    [
      "four spaces, indented lists",
      "categories:\n    - id: c\n      name: C\n      objects:\n          - id: a\n            title: A\n            domain: d\n      morphisms: []\n",
      ["          - id: b", "            title: B", "            domain: d"],
    ],
    [
      "two spaces, lists level with their key",
      "categories:\n- id: c\n  name: C\n  objects:\n  - id: a\n    title: A\n    domain: d\n  morphisms: []\n",
      ["  - id: b", "    title: B", "    domain: d"],
    ],
  ])("keeps a file's own indentation (%s)", async (_style, text, added) => {
    const root = await writeProject(await tempDir(), text);
    const store = new CatDocStore(root);
    await store.addObject("c", { id: "b", title: "B", domain: "d" }, { identity: false });
    expect(insertedLines(text, await readFile(store.paths.categoryFile, "utf8"))).toEqual(added);
  });

  it("updates fields and merges metadata (null removes a key); an unchanged patch writes nothing", async () => {
    const { store, read } = await mathStore();
    const result = await store.updateObject("groups", {
      title: "Groups",
      metadata: { level: null, audience: "students" },
      content: "# Groups\n\nNotes.\n",
    });
    expect(result).toMatchObject({ result: true, written: true });
    const groups = parseCategoryYaml(await read()).categories[0]!.objects[1];
    expect(groups).toEqual({
      id: "groups",
      title: "Groups",
      domain: "mathematics",
      metadata: { prerequisites: ["sets"], audience: "students" },
      content: "# Groups\n\nNotes.\n",
    });
    expect(result.project.model).toEqual(parseCategoryYaml(await read()));
    const before = await read();
    expect(await store.updateObject("groups", { title: "Groups" })).toMatchObject({ result: false, written: false });
    expect(await read()).toBe(before);
    await store.updateObject("groups", { content: null });
    expect(parseCategoryYaml(await read()).categories[0]!.objects[1]).not.toHaveProperty("content");
  });

  it("removes an object only with cascade when morphisms or functors refer to it", async () => {
    const { store, read, original } = await mathStore();
    await expect(store.removeObject("modules")).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("morphism 'ring-to-module'"),
    });
    expect(await read()).toBe(original);
    const result = await store.removeObject("modules", { cascade: true });
    expect(result.result.morphisms.sort()).toEqual(["id-modules", "ring-to-module"]);
    const model = parseCategoryYaml(await read());
    expect(model.categories[0]!.objects.map((o) => o.id)).not.toContain("modules");
    expect(model.functors[0]!.objectMapping).not.toHaveProperty("modules");
    expect(model.functors[0]!.morphismMapping).not.toHaveProperty("ring-to-module");
    expect(model.functors[0]!.morphismMapping).not.toHaveProperty("id-modules");
    const report = validateProject(indexProject(model));
    expect(report.isValid).toBe(true);
    expect(report.warnings).toHaveLength(2);
    expect(result.project.model).toEqual(model);
  });

  it("adds morphisms, categories, functors and natural transformations after checking their references", async () => {
    const { store, read } = await mathStore();
    await store.addMorphism("algebra", { id: "set-to-ring", name: "add-ring", source: "sets", target: "rings" });
    await store.addCategory({ id: "copy", name: "Copy" });
    await store.addObject("copy", { id: "copy-sets", title: "Sets again", domain: "mathematics" });
    await store.addFunctor({
      id: "K",
      name: "Constant",
      sourceCategory: "topology",
      targetCategory: "copy",
      objectMapping: { manifolds: "copy-sets" },
      morphismMapping: { "id-manifolds": "id-copy-sets" },
    });
    await store.addFunctor({ id: "K2", name: "Constant again", sourceCategory: "topology", targetCategory: "copy" });
    await store.addNaturalTransformation({
      id: "kappa",
      name: "κ",
      sourceFunctor: "K",
      targetFunctor: "K2",
      components: { manifolds: "id-copy-sets" },
    });
    const model = parseCategoryYaml(await read());
    expect(model.categories.map((c) => c.id)).toEqual(["algebra", "topology", "copy"]);
    expect(model.functors.map((f) => f.id)).toEqual(["forgetful-alg", "K", "K2"]);
    expect(model.naturalTransformations).toEqual([
      { id: "kappa", name: "κ", sourceFunctor: "K", targetFunctor: "K2", components: { manifolds: "id-copy-sets" } },
    ]);
    // `naturalTransformations: []` became a block list.
    expect(await read()).toMatch(/naturalTransformations:\n {2}- id: kappa\n/);
    const report = validateProject(indexProject(model));
    expect(report.warnings.filter((w) => w.code === "MISSING_COMPOSITION").map((w) => w.message)).not.toContain(
      "Missing composition: group-to-ring∘set-to-group (sets → rings)",
    );
    expect((await store.load()).model).toEqual(model);
  });

  it("upserts objects for import: added, unchanged, updated, and CONFLICT in another category", async () => {
    const { store } = await mathStore();
    const doc = { id: "lattices", title: "Lattices", domain: "mathematics", metadata: { path: "docs/lattices.md" } };
    expect((await store.edit((e) => e.upsertObject("algebra", doc))).result).toBe("added");
    expect((await store.edit((e) => e.upsertObject("algebra", doc))).result).toBe("unchanged");
    expect((await store.edit((e) => e.upsertObject("algebra", { ...doc, title: "Lattice Theory" }))).result).toBe("updated");
    await expect(store.edit((e) => e.upsertObject("topology", doc))).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("dry-runs an edit: reports the changes and the text, writes nothing", async () => {
    const { store, read, original } = await mathStore();
    const result = await store.edit(
      (e) => e.addObject("topology", { id: "knots", title: "Knots", domain: "mathematics" }, { identity: false }),
      { dryRun: true },
    );
    expect(result).toMatchObject({ written: false, changes: ["add object 'knots' to category 'topology'"] });
    expect(result.preview).toContain("- id: knots");
    expect(await read()).toBe(original);
  });
});

describe("nothing is written when an edit fails", () => {
  const failures: [string, (store: CatDocStore) => Promise<unknown>, string, RegExp][] = [
    ["unknown category", (s) => s.addObject("nope", { id: "x", title: "X", domain: "d" }), "NOT_FOUND", /Category 'nope' not found/],
    [
      "duplicate object",
      (s) => s.addObject("topology", { id: "groups", title: "X", domain: "d" }),
      "CONFLICT",
      /Object 'groups' already exists in category 'algebra'/,
    ],
    [
      "identity id taken",
      (s) =>
        s
          .addObject("algebra", { id: "sets2", title: "X", domain: "d" })
          .then(() => s.addObject("algebra", { id: "topo", title: "X", domain: "d" })),
      "CONFLICT",
      /Morphism 'id-topo'/,
    ],
    ["bad id", (s) => s.addObject("algebra", { id: "two words", title: "X", domain: "d" }), "INVALID_INPUT", /not valid/],
    [
      "empty title",
      (s) => s.addObject("algebra", { id: "x", title: " ", domain: "d" }),
      "INVALID_INPUT",
      /title must be a non-empty string/,
    ],
    [
      "unknown endpoint",
      (s) => s.addMorphism("algebra", { id: "m", name: "m", source: "sets", target: "manifolds" }),
      "NOT_FOUND",
      /Object 'manifolds' not found in category 'algebra'/,
    ],
    [
      "duplicate morphism",
      (s) => s.addMorphism("topology", { id: "set-to-group", name: "m", source: "manifolds", target: "manifolds" }),
      "CONFLICT",
      /already exists/,
    ],
    [
      "functor mapping into nothing",
      (s) =>
        s.addFunctor({ id: "B", name: "B", sourceCategory: "topology", targetCategory: "algebra", objectMapping: { manifolds: "nope" } }),
      "NOT_FOUND",
      /object 'nope' not found in category 'algebra'/,
    ],
    [
      "duplicate functor",
      (s) => s.addFunctor({ id: "forgetful-alg", name: "B", sourceCategory: "topology", targetCategory: "algebra" }),
      "CONFLICT",
      /Functor 'forgetful-alg' already exists/,
    ],
    [
      "unknown functor",
      (s) => s.addNaturalTransformation({ id: "n", name: "n", sourceFunctor: "forgetful-alg", targetFunctor: "nope" }),
      "NOT_FOUND",
      /Functor 'nope' not found/,
    ],
    ["referenced morphism", (s) => s.removeMorphism("set-to-group"), "CONFLICT", /functor 'forgetful-alg' maps morphism 'set-to-group'/],
    ["unknown object", (s) => s.updateObject("nope", { title: "X" }), "NOT_FOUND", /Object 'nope' not found/],
    [
      "a batch failing half way",
      (s) =>
        s.edit((e) => {
          e.addObject("algebra", { id: "first", title: "First", domain: "d" });
          e.addObject("algebra", { id: "first", title: "Again", domain: "d" });
        }),
      "CONFLICT",
      /Object 'first' already exists/,
    ],
  ];

  it.each(failures)("%s", async (_name, operation, code, message) => {
    const { root, store, read, original } = await mathStore();
    const rejection = operation(store);
    await expect(rejection).rejects.toMatchObject({ code });
    await expect(rejection).rejects.toThrow(message);
    const text = await read();
    // Only the first half of the "identity id taken" case may have been written.
    if (!text.includes("id: sets2")) expect(text).toBe(original);
    expect((await readdir(join(root, ".catdoc"))).sort()).toEqual(["category.yaml"]);
  });

  it("reports a malformed file with its position and does not touch it", async () => {
    const root = await writeProject(await tempDir(), "categories:\n  - id: c\n    name: [broken\n");
    const store = new CatDocStore(root);
    await expect(store.addCategory({ id: "d", name: "D" })).rejects.toBeInstanceOf(CatDocParseError);
    expect(await readFile(store.paths.categoryFile, "utf8")).toBe("categories:\n  - id: c\n    name: [broken\n");
    await expect(new CatDocStore(await tempDir()).addCategory({ id: "d", name: "D" })).rejects.toBeInstanceOf(ProjectNotInitializedError);
  });
});

describe("CONFLICT", () => {
  it("when category.yaml changes underneath between read and write, keeping the other writer's bytes", async () => {
    const { store, read, original } = await mathStore();
    const external = `${original}\n# saved by an editor\n`;
    const attempt = store.edit(async (editor) => {
      editor.addObject("algebra", { id: "lattices", title: "Lattices", domain: "mathematics" });
      await writeFile(store.paths.categoryFile, external);
    });
    await expect(attempt).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("changed on disk") });
    expect(await read()).toBe(external);
    // A new attempt reads the new version and succeeds.
    await store.addObject("algebra", { id: "lattices", title: "Lattices", domain: "mathematics" });
    expect(await read()).toContain("# saved by an editor");
  });

  it("when the caller's expected version is stale", async () => {
    const { store } = await mathStore();
    const { version } = await store.load();
    await store.addCategory({ id: "one", name: "One" }, { expectedVersion: version });
    await expect(store.addCategory({ id: "two", name: "Two" }, { expectedVersion: version })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await loadProject(store.paths.root)).model.categories.map((c) => c.id)).toEqual(["algebra", "topology", "one"]);
  });
});
