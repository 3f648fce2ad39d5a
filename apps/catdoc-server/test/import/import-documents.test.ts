/** Markdown import on real temporary projects: objects, references, dry runs, re-import, refusals. */
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CatDocStore, indexProject, validateProject } from "../../src/domain/index.js";
import { importDocuments } from "../../src/domain/import/index.js";
import { copyExample, useTempDirs } from "../domain/helpers.js";
import { NOTES, notesProject } from "./helpers.js";

const tempDir = useTempDirs();

describe("importDocuments", () => {
  it("turns documents into objects pointing to their files and references into morphisms, in one write", async () => {
    const root = await tempDir();
    const { store, read } = await notesProject(root, NOTES);
    const before = await read();
    const report = await importDocuments(store, { paths: ["docs"], categoryId: "notes" });

    expect(report.written).toBe(true);
    expect(report.documentsRead).toBe(3);
    // No frontmatter names a category (alpha's domain, research, is none): all go to the argument's.
    const placed = { categoryId: "notes", placedBy: "argument" };
    expect(report.added).toEqual([
      { id: "beta-note", path: "docs/Beta Note.md", title: "Beta From Heading", domain: "general", ...placed },
      { id: "alpha", path: "docs/alpha.md", title: "Alpha Note", domain: "research", ...placed },
      { id: "gamma", path: "docs/sub/gamma.md", title: "Gamma Page", domain: "general", ...placed },
    ]);
    expect(report.categoriesCreated).toEqual([]);
    expect(report.proposedMorphisms).toEqual([
      { id: "ref--beta-note--alpha", name: "references", source: "beta-note", target: "alpha", reason: "@ref", categoryId: "notes" },
      { id: "ref--alpha--gamma", name: "references", source: "alpha", target: "gamma", reason: "wikilink", categoryId: "notes" },
      { id: "ref--gamma--alpha", name: "references", source: "gamma", target: "alpha", reason: "link", categoryId: "notes" },
    ]);
    // @elsewhere lives in 'other': not an arrow of 'notes' but a functor mapping, proposed (no functor joins them yet).
    expect(report.proposals).toEqual([
      expect.objectContaining({ from: "alpha", to: "elsewhere", objectId: "elsewhere", image: "alpha", status: "no functor" }),
    ]);
    expect(report.unresolved).toEqual([
      { source: "alpha", reference: "beta", kind: "@ref", reason: "no object 'beta' in the project" },
      { source: "alpha", reference: "missing-one", kind: "@ref", reason: "no object 'missing-one' in the project" },
      { source: "gamma", reference: "../../../outside.md", kind: "link", reason: "the link leads outside the project root" },
      { source: "gamma", reference: "./nothing.md", kind: "link", reason: "no object has the document 'docs/sub/nothing.md'" },
    ]);
    expect(report.skipped).toEqual([]);

    // Written: objects with identities and metadata.path, found by the document loader, and valid.
    expect(await read()).not.toBe(before);
    expect((await read()).startsWith(before.split("\n")[0] ?? "")).toBe(true);
    const project = await store.load();
    const notes = project.index.categories.get("notes");
    expect(notes?.objects.get("alpha")).toEqual({
      id: "alpha",
      title: "Alpha Note",
      domain: "research",
      metadata: { path: "docs/alpha.md", contentHash: expect.stringMatching(/^sha256:[0-9a-f]{16}$/), tags: ["one", "two"] },
    });
    expect(notes?.identities.has("gamma")).toBe(true);
    const documents = await project.documents();
    expect(documents.byObject.get("beta-note")).toMatchObject({ origin: "metadata-path", path: "docs/Beta Note.md" });
    expect(validateProject(project.index).errors).toEqual([]);
  });

  it("with dryRun returns the same plan and writes nothing", async () => {
    const root = await tempDir();
    const { store, read } = await notesProject(root, NOTES);
    const before = await read();
    const planned = await importDocuments(store, { paths: ["docs"], categoryId: "notes", dryRun: true });
    expect(await read()).toBe(before);
    expect(planned).toMatchObject({ dryRun: true, written: false });
    expect(planned.changes.length).toBeGreaterThan(0);
    const done = await importDocuments(store, { paths: ["docs"], categoryId: "notes" });
    const strip = ({ dryRun: _d, written: _w, version: _v, ...rest }: typeof done) => rest;
    expect(strip(planned)).toEqual(strip(done));
  });

  it("re-import updates instead of duplicating; without force it keeps curated values and reports conflicts", async () => {
    const root = await tempDir();
    const { store, read } = await notesProject(root, NOTES);
    await importDocuments(store, { paths: ["docs"], categoryId: "notes" });
    const once = await read();

    const again = await importDocuments(store, { paths: ["docs"], categoryId: "notes" });
    expect(again).toMatchObject({ written: false, added: [], updated: [], proposedMorphisms: [], conflicts: [] });
    expect(again.unchanged.map((o) => o.id)).toEqual(["beta-note", "alpha", "gamma"]);
    expect(again.existingMorphisms).toEqual(["ref--beta-note--alpha", "ref--alpha--gamma", "ref--gamma--alpha"]);
    expect(await read()).toBe(once);

    // The document changes: without force only the bookkeeping follows; the title is a conflict.
    await writeFile(
      join(root, "docs/alpha.md"),
      NOTES["docs/alpha.md"].replace("title: Alpha Note", "title: Alpha Renamed").replace("tags: [one, two]", "tags: [three]"),
    );
    const soft = await importDocuments(store, { paths: ["docs/alpha.md"], categoryId: "notes" });
    expect(soft.updated.map((o) => [o.id, o.title])).toEqual([["alpha", "Alpha Note"]]);
    expect(soft.conflicts).toEqual([
      {
        id: "alpha",
        path: "docs/alpha.md",
        fields: ["title", "tags"],
        current: { title: "Alpha Note", tags: ["one", "two"] },
        imported: { title: "Alpha Renamed", tags: ["three"] },
      },
    ]);
    let alpha = (await store.load()).index.categories.get("notes")?.objects.get("alpha");
    expect(alpha?.title).toBe("Alpha Note");
    expect(alpha?.metadata?.["tags"]).toEqual(["one", "two"]);

    const forced = await importDocuments(store, {
      paths: ["docs/alpha.md"],
      categoryId: "notes",
      force: true,
      domain: "ignored-because-frontmatter-has-one",
    });
    expect(forced).toMatchObject({ written: true, conflicts: [], updated: [{ id: "alpha", title: "Alpha Renamed", domain: "research" }] });
    alpha = (await store.load()).index.categories.get("notes")?.objects.get("alpha");
    expect(alpha).toMatchObject({ title: "Alpha Renamed", metadata: { tags: ["three"], path: "docs/alpha.md" } });
    const project = await store.load();
    expect(project.model.categories.flatMap((c) => c.objects).filter((o) => o.id === "alpha")).toHaveLength(1);
  });

  it("on the original's math-docs, matches existing objects by frontmatter id and links them to their files", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const store = new CatDocStore(root);
    const report = await importDocuments(store, { paths: ["docs"], categoryId: "algebra" });
    expect(report.added).toEqual([]);
    expect(report.conflicts).toEqual([]);
    expect(report.updated.map((o) => o.id)).toEqual(["fields", "groups", "rings", "sets"]);
    expect(report.proposedMorphisms.map((m) => `${m.source}→${m.target}`)).toEqual([
      "fields→rings",
      "groups→sets",
      "groups→rings",
      "rings→groups",
      "rings→fields",
      "rings→modules",
      "sets→groups",
      "sets→rings",
    ]);
    const project = await store.load();
    expect(project.index.categories.get("algebra")?.objects.get("groups")?.metadata).toMatchObject({
      level: "intermediate",
      path: "docs/groups.md",
      tags: ["algebra", "group-theory", "mathematics"],
    });
    // The functor out of algebra does not map the new morphisms yet: the report says so, and validation agrees.
    expect(report.warnings).toEqual([
      expect.stringContaining(
        "Category 'algebra' is the source of functor(s) 'forgetful-alg': map the 0 new object(s) and 8 new morphism(s)",
      ),
    ]);
    const errors = validateProject(indexProject(project.model)).errors;
    expect(new Set(errors.map((e) => e.code))).toEqual(new Set(["FUNCTOR_UNMAPPED_MORPHISM"]));
    expect(errors).toHaveLength(8);
  });

  it("skips what it cannot import and says why", async () => {
    const root = await tempDir();
    const { store } = await notesProject(root, {
      "docs/one.md": "---\nid: same\n---\n# One",
      "docs/two.md": "---\nid: same\n---\n# Two",
      "docs/bad.md": "---\nid: has space\n---\n# Bad",
      "docs/elsewhere.md": "# Elsewhere again",
      "docs/readme.txt": "not markdown",
    });
    await store.addObject("notes", { id: "pointed", title: "Pointed", domain: "d", metadata: { path: "docs/original.md" } });
    await writeFile(join(root, "docs/pointed.md"), "# Pointed");
    const report = await importDocuments(store, { paths: ["docs", "docs/readme.txt"], categoryId: "notes" });
    expect(report.added.map((o) => o.id)).toEqual(["same"]);
    expect(report.skipped).toEqual([
      { path: "docs/readme.txt", reason: "not a Markdown file (.md or .markdown)" },
      { path: "docs/bad.md", id: "has space", reason: expect.stringContaining("not a valid object id") },
      {
        path: "docs/elsewhere.md",
        id: "elsewhere",
        reason: "object 'elsewhere' exists in category 'other'; import into that category to update it",
      },
      {
        path: "docs/pointed.md",
        id: "pointed",
        reason: "object 'pointed' already has the document 'docs/original.md'; use force to point it to 'docs/pointed.md'",
      },
      { path: "docs/two.md", id: "same", reason: "object id 'same' also comes from 'docs/one.md' in this import" },
    ]);
    const forced = await importDocuments(store, { paths: ["docs/pointed.md"], categoryId: "notes", force: true });
    expect(forced.updated.map((o) => o.id)).toEqual(["pointed"]);
  });

  it("refuses paths outside the project root, symbolic links out of it included, and writes nothing", async () => {
    const outside = await tempDir("catdoc-outside-");
    await writeFile(join(outside, "secret.md"), "---\nid: secret\n---\n# Secret");
    const root = await tempDir();
    const { store, read } = await notesProject(root, NOTES);
    await symlink(join(outside, "secret.md"), join(root, "docs", "link.md"));
    await symlink(outside, join(root, "linked-dir"));
    const before = await read();
    for (const path of ["../x.md", join(outside, "secret.md"), "docs/../../x.md", "linked-dir", "linked-dir/secret.md"]) {
      await expect(importDocuments(store, { paths: ["docs/alpha.md", path], categoryId: "notes" }), path).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
    }
    expect(await read()).toBe(before);
    // Inside a directory, a link that leads out is skipped, not followed.
    const report = await importDocuments(store, { paths: ["docs"], categoryId: "notes", dryRun: true });
    expect(report.skipped).toContainEqual({ path: "docs/link.md", reason: "symbolic link that resolves outside the project root" });
    expect(report.added.map((o) => o.id)).not.toContain("secret");
  });

  it("fails as a whole on an unknown category, a missing path or a project that is not initialized", async () => {
    const root = await tempDir();
    const { store, read } = await notesProject(root, NOTES);
    const before = await read();
    await expect(importDocuments(store, { paths: ["docs"], categoryId: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Category 'nope' not found (given as categoryId); add createCategory: true to create it, or use one of: notes, other",
    });
    await expect(importDocuments(store, { paths: ["docs", "missing.md"], categoryId: "notes" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await read()).toBe(before);
    const created = await importDocuments(store, { paths: ["docs/alpha.md"], categoryId: "fresh", createCategory: { name: "Fresh" } });
    expect(created).toMatchObject({ categoryCreated: true, added: [{ id: "alpha" }] });

    const bare = await tempDir();
    await mkdir(join(bare, "docs"));
    await writeFile(join(bare, "docs", "a.md"), "# A");
    await expect(importDocuments(new CatDocStore(bare), { paths: ["docs"], categoryId: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      name: "ProjectNotInitializedError",
    });
    expect(await readFile(join(bare, "docs", "a.md"), "utf8")).toBe("# A");
  });
});
