/**
 * Security review (issue #8, part 5): every path a client hands catdoc-mcp stays inside the
 * project root, symlinks included. Through the real client: catdoc_import_document's filePath,
 * catdoc_init's directory (a write: also through a symlinked parent that does not exist yet),
 * and the document paths objects carry in category.yaml, read by catdoc_show_object, the
 * catdoc://objects/{id} resource and catdoc_search. `..`, absolute paths elsewhere, a symlink to
 * a file outside and a symlink to a folder outside are refused with FORBIDDEN (or, for document
 * paths, left unread) and nothing outside is read or written. Paths no file system takes (a NUL
 * byte, 5,000 characters, a name above 255 bytes) are INVALID_INPUT naming the argument, and a
 * loop of symbolic links is NOT_FOUND — the fuzz harness found them answered INTERNAL.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, callError, callRaw, useCatDoc, writeProject } from "./helpers.js";

const { tempDir, connect } = useCatDoc();
const WORD = randomBytes(6).toString("hex");
const SECRET = `TOP-SECRET-${WORD}`;

/** A project next to a folder it must not reach: docs/ with a link to a file outside and a link to that folder. */
async function setup() {
  const outside = await tempDir("catdoc-outside-");
  await writeFile(join(outside, "secret.md"), `---\nid: leak\ntitle: Leak\n---\n# ${SECRET}\n`);
  const root = await tempDir();
  const objects = [
    "{ id: up, title: Up, domain: d, metadata: { path: ../secret.md } }",
    `{ id: absolute, title: Absolute, domain: d, metadata: { file: ${JSON.stringify(join(outside, "secret.md"))} } }`,
    "{ id: file-link, title: File link, domain: d, metadata: { document: docs/link.md } }",
    "{ id: dir-link, title: Dir link, domain: d, metadata: { documentPath: docs/outside-dir/secret.md } }",
    "{ id: leak, title: Leak by id, domain: d }",
    "{ id: fine, title: Fine, domain: d, metadata: { path: docs/fine.md } }",
  ];
  await writeProject(
    root,
    `categories:\n  - id: notes\n    name: Notes\n    objects:\n${objects.map((o) => `      - ${o}`).join("\n")}\n    morphisms: []\n`,
    {
      files: { "docs/fine.md": "---\nid: fine\n---\n# Fine\n" },
    },
  );
  await symlink(join(outside, "secret.md"), join(root, "docs", "link.md"));
  await symlink(outside, join(root, "docs", "outside-dir"));
  await symlink(outside, join(root, "linked-dir"));
  const categoryFile = join(root, ".catdoc", "category.yaml");
  return { root, outside, categoryFile, client: await connect(root) };
}

describe("catdoc-mcp keeps client paths inside the project root", () => {
  it("catdoc_import_document refuses `..`, absolute paths, and symlinks to a file or a folder outside; nothing is written", async () => {
    const { outside, categoryFile, client } = await setup();
    const before = await readFile(categoryFile, "utf8");
    for (const filePath of [
      "../secret.md",
      "docs/../../secret.md",
      join(outside, "secret.md"),
      "docs/link.md",
      "linked-dir",
      "linked-dir/secret.md",
      "docs/outside-dir/secret.md",
    ]) {
      const error = await callError(client, "catdoc_import_document", { filePath, categoryId: "notes" });
      expect(error, filePath).toMatchObject({ code: "FORBIDDEN", status: 403 });
    }
    // Walking docs/, the links out are skipped, not followed.
    const report = await call(client, "catdoc_import_document", {
      filePath: "docs",
      categoryId: "notes",
      dryRun: true,
      response_level: "full",
    });
    expect(JSON.stringify(report)).not.toContain(SECRET);
    expect(report.skipped).toContainEqual({ path: "docs/link.md", reason: "symbolic link that resolves outside the project root" });
    expect(await readFile(categoryFile, "utf8")).toBe(before);
  });

  it("catdoc_init refuses a directory outside, through a symlinked folder, or under a symlinked parent that does not exist yet; nothing is written outside", async () => {
    const { root, outside, client } = await setup();
    const listing = await readdir(outside);
    for (const directory of [
      "../elsewhere",
      join(outside, "new"),
      outside,
      "linked-dir",
      "linked-dir/new",
      "linked-dir/new/deeper",
      "docs/outside-dir/new",
    ]) {
      const error = await callError(client, "catdoc_init", { directory, force: true });
      expect(error, directory).toMatchObject({ code: "FORBIDDEN", status: 403 });
    }
    expect(await readdir(outside)).toEqual(listing);
    // Inside, a folder is fine; one that does not exist is NOT_FOUND (only outside ones are FORBIDDEN).
    await mkdir(join(root, "sub"));
    expect(await call(client, "catdoc_init", { directory: "sub" })).toMatchObject({ initialized: true });
    expect(await callError(client, "catdoc_init", { directory: "sub/new" })).toMatchObject({ code: "NOT_FOUND" });
  });

  it("document paths in category.yaml that lead out are not read by show_object, the object resource or search", async () => {
    const { client } = await setup();
    const seen: string[] = [];
    for (const id of ["up", "absolute", "file-link", "dir-link", "leak"]) {
      const shown = await callRaw(client, "catdoc_show_object", { objectId: id, response_level: "full" });
      seen.push(JSON.stringify(shown));
      const resource = await client.readResource({ uri: `catdoc://objects/${id}` }).catch((error: unknown) => String(error));
      seen.push(JSON.stringify(resource));
    }
    for (const text of seen) expect(text).not.toContain(WORD);
    // Search does not find the word in a document outside (the answer names the query, so only its hits count).
    const search = await call(client, "catdoc_search", { query: WORD, response_level: "full" });
    expect(search.hits).toEqual([]);
    // The document inside the root is read (the check is not a blanket refusal).
    const fine = await call(client, "catdoc_show_object", { objectId: "fine", response_level: "full" });
    expect(fine.content).toContain("# Fine");
  });
});

describe("writes through a symlinked parent", () => {
  it("catdoc_init does not create folders through a link that leads out", async () => {
    const { outside, client } = await setup();
    await mkdir(join(outside, "existing"));
    const error = await callError(client, "catdoc_init", { directory: "linked-dir/existing" });
    expect(error).toMatchObject({ code: "FORBIDDEN" });
    expect(await readdir(join(outside, "existing"))).toEqual([]);
  });
});

describe("paths the file system refuses get a coded error naming the argument, never INTERNAL", () => {
  /** A project with a loop of symbolic links (loop-a → loop-b → loop-a) and a link to itself. */
  async function loops() {
    const { root, client } = await setup();
    await symlink(join(root, "loop-b"), join(root, "loop-a"));
    await symlink(join(root, "loop-a"), join(root, "loop-b"));
    await symlink(join(root, "self.md"), join(root, "self.md"));
    return { root, client };
  }

  const overlong = "a".repeat(5_000);
  const longName = `docs/${"n".repeat(300)}.md`;

  it("catdoc_import_document: a 5,000-character path, a name above 255 bytes and a NUL byte are INVALID_INPUT naming filePath", async () => {
    const { client } = await loops();
    for (const filePath of [overlong, `docs/${overlong}`, longName, "docs/fine\0.md", "\0"]) {
      const error = await callError(client, "catdoc_import_document", { filePath, categoryId: "notes", dryRun: true });
      expect(error, filePath.slice(0, 40)).toMatchObject({ code: "INVALID_INPUT", status: 400, details: { field: "filePath" } });
      expect(error.message).toMatch(/^filePath: /);
      expect(error.message.length).toBeLessThan(400);
    }
  });

  it("catdoc_import_document: a symlink loop is NOT_FOUND saying so", async () => {
    const { client } = await loops();
    for (const filePath of ["loop-a", "loop-b/x.md", "self.md"]) {
      const error = await callError(client, "catdoc_import_document", { filePath, categoryId: "notes", dryRun: true });
      expect(error, filePath).toMatchObject({ code: "NOT_FOUND", details: { field: "filePath" } });
      expect(error.message).toContain("symbolic links form a loop");
    }
    // Walking a folder that holds the loop skips the links instead of failing.
    const report = await call(client, "catdoc_import_document", {
      filePath: ".",
      categoryId: "notes",
      dryRun: true,
      response_level: "full",
    });
    expect(report.written).toBe(false);
  });

  it("catdoc_init: a 5,000-character directory, a long name and a NUL byte are INVALID_INPUT naming directory; a loop is NOT_FOUND", async () => {
    const { client } = await loops();
    for (const directory of [overlong, longName, "sub\0dir"]) {
      const error = await callError(client, "catdoc_init", { directory, force: true });
      expect(error, directory.slice(0, 40)).toMatchObject({ code: "INVALID_INPUT", details: { field: "directory" } });
    }
    for (const directory of ["loop-a", "loop-a/new"]) {
      const error = await callError(client, "catdoc_init", { directory, force: true });
      expect(error, directory).toMatchObject({ code: "NOT_FOUND", details: { field: "directory" } });
    }
  });
});
