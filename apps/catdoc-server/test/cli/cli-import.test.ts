/** `catdoc import` through the built bin: Markdown files into category.yaml, dry run, re-import, refusals. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { copyExample, useTempDirs } from "../domain/helpers.js";
import { assertBuilt, catdoc } from "./run-catdoc.js";

beforeAll(assertBuilt);
const tempDir = useTempDirs();

/** A fresh project holding the dev-project's docs/ but an empty category.yaml. */
async function freshProject(): Promise<string> {
  const root = await copyExample(await tempDir(), "dev-project");
  expect((await catdoc(["init", "--force"], { cwd: root })).code).toBe(0);
  return root;
}

const categoryFile = (root: string) => readFile(join(root, ".catdoc", "category.yaml"), "utf8");

describe("catdoc import", () => {
  it("--dry-run reports the plan and writes nothing", async () => {
    const root = await freshProject();
    const before = await categoryFile(root);
    const result = await catdoc(["import", "docs/requirements", "--category", "reqs", "--create-category", "Requirements", "--dry-run"], {
      cwd: root,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Dry run: nothing written\.\nCategory: reqs \(created\); 2 Markdown file\(s\) read\.\n/);
    expect(result.stdout).toMatch(/Objects would be added \(2\):\n {2}ID +TITLE +DOMAIN +PATH\n/);
    expect(result.stdout).toContain("req-auth-system      認証システム要件  requirements  docs/requirements/auth-system.md");
    expect(await categoryFile(root)).toBe(before);
  });

  it("imports files into the category, proposes morphisms for references, and re-imports without duplicating", async () => {
    const root = await freshProject();
    const first = await catdoc(
      [
        "import",
        "docs/requirements/auth-system.md",
        "docs/requirements/user-management.md",
        "--category",
        "reqs",
        "--create-category",
        "Requirements",
        "--format",
        "json",
      ],
      { cwd: root },
    );
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as {
      written: boolean;
      added: Array<{ id: string }>;
      proposedMorphisms: Array<{ source: string; target: string }>;
    };
    expect(report.written).toBe(true);
    expect(report.added.map((o) => o.id).sort()).toEqual(["req-auth-system", "req-user-management"]);
    expect(report.proposedMorphisms).toContainEqual(expect.objectContaining({ source: "req-auth-system", target: "req-user-management" }));

    const listed = await catdoc(["list", "objects", "--format", "json"], { cwd: root });
    expect((JSON.parse(listed.stdout) as { total: number }).total).toBe(2);
    const validated = await catdoc(["validate", "--format", "json"], { cwd: root });
    expect(JSON.parse(validated.stdout)).toMatchObject({ isValid: true });

    // The only category is the default now; nothing changes on a second import.
    const again = await catdoc(["import", "docs/requirements"], { cwd: root });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Nothing to change\.\n/);
    expect(again.stdout).toContain("Objects unchanged (2):");
    expect((JSON.parse((await catdoc(["list", "objects", "--format", "json"], { cwd: root })).stdout) as { total: number }).total).toBe(2);
  });

  it("reads paths relative to the working directory when --project points elsewhere", async () => {
    const root = await freshProject();
    const result = await catdoc(
      ["--project", root, "import", join("docs", "specs"), "--category", "specs", "--create-category", "Specifications"],
      { cwd: root },
    );
    expect(result.code).toBe(0);
    const fromOutside = await catdoc(
      ["--project", root, "import", join(root, "docs", "design"), "--category", "specs", "--dry-run", "--format", "json"],
      { cwd: await tempDir() },
    );
    expect(fromOutside.code).toBe(0);
    expect((JSON.parse(fromOutside.stdout) as { added: unknown[] }).added).toHaveLength(2);
  });

  it("refuses paths outside the project and unknown categories, writing nothing", async () => {
    const root = await freshProject();
    const before = await categoryFile(root);
    const outside = await catdoc(["import", "../", "--category", "reqs", "--create-category", "R"], { cwd: root });
    expect(outside.code).toBe(1);
    expect(outside.stdout).toBe("");
    expect(outside.stderr).toMatch(/^catdoc: Path '.*' is outside the project root\n$/);
    const unknown = await catdoc(["import", "docs/requirements", "--category", "nope"], { cwd: root });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("catdoc: Category 'nope' not found; create it with --create-category <name>");
    const none = await catdoc(["import", "docs/requirements"], { cwd: root });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("the project has no category yet");
    expect(await categoryFile(root)).toBe(before);
  });
});
