/**
 * An import that understands the project (issue 17 item 5): documents go to the category their
 * frontmatter names, categories are created only when asked, arrows are named after the verb
 * before the reference, and references across categories become functor mapping proposals.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { CatDocStore } from "../../src/domain/index.js";
import { extractReferences, importDocuments } from "../../src/domain/import/index.js";
import { useTempDirs } from "../domain/helpers.js";

const tempDir = useTempDirs();

const DOCS = {
  "docs/req/login.md": "---\nid: req-login\ntitle: Log in\ndomain: requirements\n---\nDepends on @req-account.\n",
  "docs/req/account.md": "---\nid: req-account\ntitle: Accounts\ndomain: requirements\n---\nA person has an account.\n",
  "docs/tests/login.md":
    "---\nid: test-login\ncategory: tests\n---\n# Login test\nThis test covers @req-login and uses [[test-fixture]]; see @nowhere.\n",
  "docs/tests/fixture.md": "---\nid: test-fixture\ncategory: tests\n---\n# Fixture\nShared set-up.\n",
};

/** A project with the categories given (empty by default) and DOCS on disk. */
async function project(categories: string[] = [], files: Record<string, string> = DOCS) {
  const root = await tempDir();
  const store = new CatDocStore(root);
  await store.init({ projectName: "trace" });
  for (const id of categories) await store.addCategory({ id, name: id });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const read = () => readFile(store.paths.categoryFile, "utf8");
  return { root, store, read };
}

describe("import into the project's categories", () => {
  it("names arrows after the verb before the reference; a passive verb turns the arrow; a list shares its verb", () => {
    const text = [
      "This test covers @req-a, @req-b and [[Req C]].",
      "It depends on the [store](./store.md); see @plain.",
      "Login is covered by @test-login.",
      "Implements: @design-x",
      "Tests live next to @code-y. Again @req-a.",
    ].join("\n\n");
    const found = extractReferences(text).map((r) => [r.value, r.relation?.name ?? "-", r.relation?.inverse === true ? "inverse" : ""]);
    expect(found).toEqual([
      ["req-a", "covers", ""],
      ["req-b", "covers", ""],
      ["plain", "-", ""],
      ["test-login", "covers", "inverse"],
      ["design-x", "implements", ""],
      ["code-y", "tests", ""],
      ["Req C", "covers", ""],
      ["./store.md", "depends on", ""],
    ]);
  });

  it("refuses a category that does not exist unless asked, naming the option, and writes nothing", async () => {
    const { store, read } = await project(["requirements"]);
    const before = await read();
    // The argument names an unknown category.
    await expect(importDocuments(store, { paths: ["docs/req"], categoryId: "reqs" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Category 'reqs' not found (given as categoryId); add createCategory: true to create it, or use one of: requirements",
      suggestion: "Add createCategory: true to create 'reqs', or use one of: requirements.",
    });
    // A document's frontmatter names an unknown category (tests): refused as a whole, even with a valid argument.
    await expect(importDocuments(store, { paths: ["docs"], categoryId: "requirements" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining(
        "Category 'tests' not found (named by the frontmatter of docs/tests/fixture.md); add createCategory: true",
      ),
    });
    expect(await read()).toBe(before);
  });

  it("on an empty project creates nothing silently: the error says the project has no categories and how to create one", async () => {
    const { store, read } = await project();
    const before = await read();
    await expect(importDocuments(store, { paths: ["docs/req"] })).rejects.toMatchObject({
      name: "ImportCategoryMissingError",
      code: "INVALID_INPUT",
      message: expect.stringContaining("The project has no category yet and 2 document(s) name no category"),
    });
    await expect(importDocuments(store, { paths: ["docs/req"], categoryId: "requirements" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message:
        "Category 'requirements' not found (given as categoryId): the project has no categories yet; add createCategory: true to create it",
    });
    expect(await read()).toBe(before);

    const created = await importDocuments(store, { paths: ["docs"], categoryId: "requirements", createCategory: true });
    expect(created.categoriesCreated).toEqual([
      { id: "requirements", name: "Requirements", reason: "argument" },
      { id: "tests", name: "Tests", reason: "frontmatter category", document: "docs/tests/fixture.md" },
    ]);
    expect(created.added.map((o) => [o.id, o.categoryId, o.placedBy])).toEqual([
      ["req-account", "requirements", "frontmatter domain"],
      ["req-login", "requirements", "frontmatter domain"],
      ["test-fixture", "tests", "frontmatter category"],
      ["test-login", "tests", "frontmatter category"],
    ]);
    expect(created.proposedMorphisms).toEqual([
      {
        id: "depends-on--req-login--req-account",
        name: "depends on",
        source: "req-login",
        target: "req-account",
        reason: "@ref",
        categoryId: "requirements",
      },
      {
        id: "uses--test-login--test-fixture",
        name: "uses",
        source: "test-login",
        target: "test-fixture",
        reason: "wikilink",
        categoryId: "tests",
      },
    ]);
    // A reference to an id that exists nowhere is reported, never invented.
    expect(created.unresolved).toEqual([
      { source: "test-login", reference: "nowhere", kind: "@ref", reason: "no object 'nowhere' in the project" },
    ]);
    const model = (await store.load()).model;
    expect(model.categories.flatMap((c) => c.objects.map((o) => o.id))).not.toContain("nowhere");
    // The covers reference crosses categories: a functor requirements → tests is proposed, not written.
    expect(created.proposals).toEqual([
      {
        from: "test-login",
        to: "req-login",
        relation: "covers",
        kind: "@ref",
        sourceCategory: "requirements",
        targetCategory: "tests",
        objectId: "req-login",
        image: "test-login",
        status: "no functor",
        edit: 'functors: + {id: "requirements-to-tests", name: "requirements to tests", sourceCategory: "requirements", targetCategory: "tests", objectMapping: {"req-login": "test-login"}}',
        note: expect.stringContaining("No functor joins 'requirements' and 'tests'"),
      },
    ]);
    expect(model.functors).toEqual([]);
  });

  it("proposes the mapping in the one functor between the categories, applies it when asked, then finds it mapped", async () => {
    const { store, read } = await project(["requirements", "tests"]);
    await importDocuments(store, { paths: ["docs/req"], categoryId: "requirements" });
    await store.addFunctor({ id: "verify", name: "Verify", sourceCategory: "requirements", targetCategory: "tests" });

    const proposed = await importDocuments(store, { paths: ["docs/tests"] });
    expect(proposed.categoryId).toBeNull();
    expect(proposed.proposals).toMatchObject([
      {
        functorId: "verify",
        objectId: "req-login",
        image: "test-login",
        status: "proposed",
        edit: 'functors[verify].objectMapping: {"req-login": "test-login"}',
      },
    ]);
    expect((await store.load()).model.functors[0]?.objectMapping).toEqual({});

    const before = await read();
    const planned = await importDocuments(store, { paths: ["docs/tests"], applyProposals: true, dryRun: true });
    expect(planned.proposals[0]?.status).toBe("applied");
    expect(await read()).toBe(before);

    const applied = await importDocuments(store, { paths: ["docs/tests"], applyProposals: true });
    expect(applied).toMatchObject({ written: true, proposals: [{ status: "applied" }] });
    expect(applied.warnings).toContainEqual(expect.stringContaining("1 object mapping(s) applied in functor(s) 'verify'"));
    // The identities follow the object (F(id A) = id F(A), the one lawful image).
    expect((await store.load()).model.functors[0]).toMatchObject({
      objectMapping: { "req-login": "test-login" },
      morphismMapping: { "id-req-login": "id-test-login" },
    });
    expect(applied.proposals[0]?.note).toBe("Mapped in functor 'verify', with the identities (id-req-login ↦ id-test-login).");

    const again = await importDocuments(store, { paths: ["docs/tests"], applyProposals: true });
    expect(again).toMatchObject({ written: false, proposals: [{ status: "mapped" }] });
  });

  it("applies nothing for an object given two images, or one mapped elsewhere already", async () => {
    const files = {
      ...DOCS,
      "docs/tests/login-2.md": "---\nid: test-login-2\ncategory: tests\n---\n# Second\nCovers @req-login too.\n",
      "docs/tests/account.md": "---\nid: test-account\ncategory: tests\n---\n# Account test\nVerifies @req-account.\n",
    };
    const { store, read } = await project(["requirements", "tests"], files);
    await importDocuments(store, { paths: ["docs/req"], categoryId: "requirements" });
    await importDocuments(store, { paths: ["docs/tests/fixture.md"] });
    await store.addFunctor({
      id: "verify",
      name: "Verify",
      sourceCategory: "requirements",
      targetCategory: "tests",
      objectMapping: { "req-account": "test-fixture" },
    });
    const before = await read();
    const report = await importDocuments(store, { paths: ["docs/tests"], applyProposals: true, dryRun: true });
    expect(report.proposals.map((p) => [p.objectId, p.image, p.status])).toEqual([
      ["req-account", "test-account", "conflict"],
      ["req-login", "test-login-2", "ambiguous"],
      ["req-login", "test-login", "ambiguous"],
    ]);
    expect(report.proposals[0]?.note).toContain("maps 'req-account' to 'test-fixture'");
    expect(await read()).toBe(before);
  });

  it("keeps an earlier import's ref-- arrow when the document later names a verb", async () => {
    const { store, root } = await project(["requirements"]);
    await writeFile(join(root, "docs/req/login.md"), "---\nid: req-login\n---\nSee @req-account.\n");
    const first = await importDocuments(store, { paths: ["docs/req"] });
    expect(first.proposedMorphisms.map((m) => [m.id, m.name])).toEqual([["ref--req-login--req-account", "references"]]);
    expect(first.added.map((o) => [o.id, o.placedBy])).toEqual([
      ["req-account", "frontmatter domain"],
      ["req-login", "only category"],
    ]);
    await writeFile(join(root, "docs/req/login.md"), "---\nid: req-login\n---\nDepends on @req-account.\n");
    const second = await importDocuments(store, { paths: ["docs/req"] });
    expect(second.proposedMorphisms).toEqual([]);
    expect(second.existingMorphisms).toEqual(["ref--req-login--req-account"]);
  });
});
