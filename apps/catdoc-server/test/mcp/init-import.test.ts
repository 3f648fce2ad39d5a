/** catdoc_init and catdoc_import_document through the client, on real temporary folders. */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, callError, levels, useCatDoc, writeProject } from "./helpers.js";

const { tempDir, connect, example } = useCatDoc();

async function docsFolder(root: string) {
  await mkdir(join(root, "docs"), { recursive: true });
  await writeFile(
    join(root, "docs", "intro.md"),
    "---\nid: intro\ntags: [start]\n---\n# Introduction\nRead @usage next, or [usage](./usage.md).\n",
  );
  await writeFile(join(root, "docs", "usage.md"), "# Usage\nBack to [[intro]]; see also @nowhere.\n");
}

describe("catdoc_init", () => {
  it("creates a project, refuses to overwrite it without force, and stays inside the root", async () => {
    const root = await tempDir();
    const client = await connect(root);
    expect(await call(client, "catdoc_init")).toEqual({
      initialized: true,
      root,
      files: [".catdoc/category.yaml", ".catdoc/config.yaml"],
      overwritten: false,
    });
    expect(await readFile(join(root, ".catdoc", "category.yaml"), "utf8")).toContain("categories: []");
    // Levels (init is not idempotent: with force every call gives the same answer).
    const { standard, full } = await levels(client, "catdoc_init", { force: true });
    expect(standard).toMatchObject({ overwritten: true, servedByThisServer: true, projectName: expect.stringMatching(/^catdoc-/) });
    expect(full.version).toMatch(/^[0-9a-f]{64}$/);
    expect(await call(client, "catdoc_list_categories")).toMatchObject({ total: 0, ids: [] });
  }, 20_000);

  it("answers CONFLICT on an existing project and overwrites only with force", async () => {
    const { root, client } = await example("math-docs");
    const before = await readFile(join(root, ".catdoc", "category.yaml"), "utf8");
    const conflict = await callError(client, "catdoc_init");
    expect(conflict).toMatchObject({ code: "CONFLICT" });
    expect(conflict.message).toContain("already initialized");
    expect(conflict.suggestion).toContain("force: true");
    expect(await readFile(join(root, ".catdoc", "category.yaml"), "utf8")).toBe(before);
    expect(await call(client, "catdoc_init", { force: true })).toMatchObject({ overwritten: true });
    expect(await call(client, "catdoc_list_objects")).toMatchObject({ total: 0 });
    expect(await callError(client, "catdoc_init", { directory: "../elsewhere" })).toMatchObject({ code: "FORBIDDEN" });
    await mkdir(join(root, "sub"));
    expect(await call(client, "catdoc_init", { directory: "sub", response_level: "standard" })).toMatchObject({
      root: join(root, "sub"),
      servedByThisServer: false,
    });
  });
});

describe("catdoc_import_document", () => {
  it("creates a category only when asked; a dry run writes nothing; re-import does not duplicate", async () => {
    const root = await tempDir();
    const client = await connect(root);
    await call(client, "catdoc_init");
    await docsFolder(root);
    const file = join(root, ".catdoc", "category.yaml");
    const empty = await readFile(file, "utf8");

    // An empty project gets no silent 'documents' category: the errors say how to create one.
    const none = await callError(client, "catdoc_import_document", { filePath: "docs" });
    expect(none).toMatchObject({ code: "INVALID_INPUT" });
    expect(none.message).toContain("The project has no category yet and 2 document(s) name no category");
    expect(none.message).toContain("give categoryId with createCategory: true");
    const unknown = await callError(client, "catdoc_import_document", { filePath: "docs", categoryId: "documents" });
    expect(unknown).toMatchObject({
      code: "NOT_FOUND",
      suggestion: "The project has no categories yet: add createCategory: true to create 'documents'.",
    });
    expect(await readFile(file, "utf8")).toBe(empty);

    const args = { filePath: "docs", categoryId: "documents", createCategory: true, dryRun: true };
    const planned = await levels(client, "catdoc_import_document", args);
    expect(planned.minimal).toMatchObject({
      written: false,
      dryRun: true,
      categoryId: "documents",
      categoryCreated: true,
      counts: { documentsRead: 2, added: 2, proposedMorphisms: 2, unresolved: 1, categoriesCreated: 1, proposals: 0 },
    });
    // minimal is the counts (issue 16: ≤ 25 % of full); the lists behind them come from standard.
    expect(Object.keys(planned.minimal).sort()).toEqual(["categoryCreated", "categoryId", "counts", "dryRun", "written"]);
    expect(planned.standard).toMatchObject({
      categoriesCreated: [{ id: "documents", name: "Documents", reason: "argument" }],
      added: [{ id: "intro" }, { id: "usage" }],
      proposedMorphisms: [
        { id: "ref--intro--usage", source: "intro", target: "usage", name: "references", categoryId: "documents" },
        { id: "ref--usage--intro", source: "usage", target: "intro" },
      ],
      unresolved: [{ source: "usage", reference: "nowhere" }],
      proposals: [],
      truncated: false,
    });
    // Without response_level, an import answers at its own default: standard.
    expect(await call(client, "catdoc_import_document", args)).toEqual(planned.standard);
    expect(planned.standard.added).toEqual([
      { id: "intro", categoryId: "documents", placedBy: "argument", path: "docs/intro.md", title: "Introduction" },
      { id: "usage", categoryId: "documents", placedBy: "argument", path: "docs/usage.md", title: "Usage" },
    ]);
    expect((planned.full.changes as string[]).length).toBeGreaterThan(4);
    expect(await readFile(file, "utf8")).toBe(empty);
    expect(await call(client, "catdoc_list_objects")).toMatchObject({ total: 0 });

    const done = await call(client, "catdoc_import_document", { filePath: "docs", categoryId: "documents", createCategory: true });
    expect(done).toMatchObject({ written: true, counts: { added: 2, proposedMorphisms: 2 } });
    expect(await call(client, "catdoc_list_objects")).toMatchObject({ total: 2 });
    expect(await call(client, "catdoc_show_object", { objectId: "intro", response_level: "full" })).toMatchObject({
      metadata: { path: "docs/intro.md", tags: ["start"] },
      document: { origin: "metadata-path", path: "docs/intro.md" },
      outgoing: [{ id: "ref--intro--usage", target: "usage", name: "references" }],
    });
    expect(await call(client, "catdoc_validate")).toMatchObject({ isValid: true });

    const written = await readFile(file, "utf8");
    const again = await call(client, "catdoc_import_document", { filePath: "docs" });
    expect(again).toMatchObject({
      written: false,
      categoryCreated: false,
      counts: { added: 0, unchanged: 2, existingMorphisms: 2, proposedMorphisms: 0 },
    });
    expect(await readFile(file, "utf8")).toBe(written);
    expect(await call(client, "catdoc_list_objects")).toMatchObject({ total: 2 });
  });

  it("refuses paths outside the project root and writes nothing", async () => {
    const { root, client } = await example("math-docs");
    const file = join(root, ".catdoc", "category.yaml");
    const before = await readFile(file, "utf8");
    for (const filePath of ["../outside.md", "/etc/hosts", "docs/../../x.md"]) {
      const error = await callError(client, "catdoc_import_document", { filePath, categoryId: "algebra" });
      expect(error, filePath).toMatchObject({ code: "FORBIDDEN", status: 403 });
      expect(error.message).toContain("outside the project root");
    }
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("needs categoryId when the project has several categories, and imports existing documents as updates", async () => {
    const { client } = await example("math-docs");
    const error = await callError(client, "catdoc_import_document", { filePath: "docs" });
    expect(error).toMatchObject({ code: "INVALID_INPUT" });
    expect(error.message).toContain("categoryId");
    const unknown = await callError(client, "catdoc_import_document", { filePath: "docs", categoryId: "nope" });
    expect(unknown).toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining("Category 'nope' not found (given as categoryId)"),
    });
    expect(unknown.suggestion).toMatch(/^Add createCategory: true to create 'nope', or use one of: algebra/);
    expect(await callError(client, "catdoc_import_document", { filePath: "missing", categoryId: "algebra" })).toMatchObject({
      code: "NOT_FOUND",
    });
    const result = await call(client, "catdoc_import_document", {
      filePath: "docs",
      categoryId: "algebra",
      limit: 2,
      response_level: "standard",
    });
    expect(result).toMatchObject({ counts: { added: 0, updated: 4, proposedMorphisms: 8 }, truncated: true });
    expect(result.updated).toHaveLength(2);
    expect(result.warnings).toEqual([expect.stringContaining("forgetful-alg")]);
  });

  it("proposes a mapping of the one functor for a reference across categories, at every level, and applies it when asked", async () => {
    const root = await writeProject(
      await tempDir(),
      [
        "categories:",
        "  - {id: requirements, name: Requirements, objects: [{id: req-login, title: Log in, domain: product}], morphisms: [{id: id-req-login, name: id, source: req-login, target: req-login, metadata: {isIdentity: true}}]}",
        "  - {id: tests, name: Tests, objects: [], morphisms: []}",
        "functors:",
        "  - {id: verify, name: Verify, sourceCategory: requirements, targetCategory: tests, objectMapping: {}, morphismMapping: {}}",
        "",
      ].join("\n"),
      { files: { "tests/login.md": "---\nid: test-login\ncategory: tests\n---\n# Login test\nCovers @req-login.\n" } },
    );
    const client = await connect(root);
    const planned = await levels(client, "catdoc_import_document", { filePath: "tests", dryRun: true });
    expect(planned.minimal).toMatchObject({ categoryId: null, counts: { added: 1, proposals: 1, unresolved: 0 } });
    expect(planned.standard.proposals).toEqual([
      {
        objectId: "req-login",
        image: "test-login",
        status: "proposed",
        functorId: "verify",
        edit: 'functors[verify].objectMapping: {"req-login": "test-login"}',
        from: "test-login",
        to: "req-login",
        relation: "covers",
      },
    ]);
    expect(planned.full.proposals).toEqual([
      expect.objectContaining({
        kind: "@ref",
        sourceCategory: "requirements",
        targetCategory: "tests",
        note: expect.stringContaining("'verify'"),
      }),
    ]);
    expect(planned.standard.added).toEqual([
      { id: "test-login", categoryId: "tests", placedBy: "frontmatter category", path: "tests/login.md", title: "Login test" },
    ]);
    const applied = await call(client, "catdoc_import_document", { filePath: "tests", applyProposals: true });
    expect(applied).toMatchObject({ written: true, proposals: [{ status: "applied" }] });
    expect(await call(client, "catdoc_show_functor", { functorId: "verify", response_level: "full" })).toMatchObject({
      objectMapping: { "req-login": "test-login" },
      morphismMapping: { "id-req-login": "id-test-login" },
    });
  });
});
