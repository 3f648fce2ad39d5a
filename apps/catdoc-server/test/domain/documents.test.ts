/** Where an object's document comes from, and that nothing outside the project root is read. */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadProject, parseMarkdown } from "../../src/domain/index.js";
import { originalFile, useTempDirs, writeProject } from "./helpers.js";

const tempDir = useTempDirs();

const yaml = (objects: string[]) =>
  ["categories:", "  - id: c", "    name: C", "    objects:", ...objects.map((o) => `      - ${o}`), "    morphisms: []"].join("\n");

describe("documents", () => {
  it("reads inline content, a metadata path, a frontmatter id and a file name, in that order", async () => {
    const root = await tempDir();
    await writeProject(
      root,
      yaml([
        "{ id: inline, title: I, domain: d, content: 'Inline text', metadata: { path: docs/pointed.md } }",
        "{ id: pointed, title: P, domain: d, metadata: { path: docs/pointed.md } }",
        "{ id: sample-doc, title: S, domain: d }",
        "{ id: no-frontmatter, title: N, domain: d }",
        "{ id: minimal, title: M, domain: d }",
        "{ id: absent, title: A, domain: d }",
      ]),
      {
        files: {
          "docs/pointed.md": "# Pointed\nBody of the pointed file.",
          "notes/sample.md": await originalFile("tests/fixtures/sample-document.md"),
          "notes/no-frontmatter.md": await originalFile("tests/fixtures/no-frontmatter.md"),
          ".catdoc/docs/minimal-document.md": await originalFile("tests/fixtures/minimal-document.md"),
          "node_modules/pkg/absent.md": "---\nid: absent\n---\nnot scanned",
        },
      },
    );
    const documents = await (await loadProject(root)).documents();
    const origin = (id: string) => [documents.byObject.get(id)?.origin, documents.byObject.get(id)?.path];
    expect(origin("inline")).toEqual(["inline", null]);
    expect(origin("pointed")).toEqual(["metadata-path", "docs/pointed.md"]);
    expect(origin("sample-doc")).toEqual(["frontmatter-id", "notes/sample.md"]);
    expect(origin("no-frontmatter")).toEqual(["file-name", "notes/no-frontmatter.md"]);
    expect(origin("minimal")).toEqual(["frontmatter-id", ".catdoc/docs/minimal-document.md"]);
    expect(documents.byObject.has("absent")).toBe(false);
    expect(documents.byObject.get("sample-doc")?.frontmatter["tags"]).toEqual(["sample", "test", "documentation"]);
    expect(documents.byObject.get("sample-doc")?.body.startsWith("\n# Sample Document for Testing")).toBe(true);
  });

  it("refuses metadata paths and symlinks that leave the project root", async () => {
    const outside = await tempDir("catdoc-outside-");
    await writeFile(join(outside, "secret.md"), "---\nid: leak\n---\nTop clearance only");
    const root = await tempDir();
    await writeProject(
      root,
      yaml([
        "{ id: escape, title: E, domain: d, metadata: { path: ../secret.md } }",
        "{ id: linked, title: L, domain: d, metadata: { file: docs/link.md } }",
        "{ id: leak, title: L, domain: d }",
      ]),
    );
    await mkdir(join(root, "docs"), { recursive: true });
    await symlink(join(outside, "secret.md"), join(root, "docs", "link.md"));
    await symlink(outside, join(root, "docs", "outside-dir"));
    const project = await loadProject(root);
    const documents = await project.documents();
    expect(documents.byObject.size).toBe(0);
    expect(documents.problems.map((p) => [p.objectId, p.path, p.reason])).toEqual([
      ["escape", "../secret.md", "Path '../secret.md' is outside the project root"],
      ["linked", "docs/link.md", "Path 'docs/link.md' resolves outside the project root"],
    ]);
    expect((await project.search("top")).hits).toEqual([]);
  });

  it("parses frontmatter tolerantly", () => {
    expect(parseMarkdown("---\nid: x\ntags: [a]\n---\n# T\n")).toEqual({
      frontmatter: { id: "x", tags: ["a"] },
      body: "# T\n",
      hasFrontmatter: true,
    });
    expect(parseMarkdown("# No frontmatter\n")).toMatchObject({ frontmatter: {}, hasFrontmatter: false });
    expect(parseMarkdown("---\n: : bad\n  - [\n---\nBody")).toMatchObject({ frontmatter: {}, body: "Body", hasFrontmatter: false });
  });
});
