/**
 * `catdoc import` in-process (the CLI's own program): Markdown files into category.yaml, dry run,
 * re-import, categories named by frontmatter, proposals across categories, refusals.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyExample, useTempDirs } from "../domain/helpers.js";
import { runInProcess } from "./run-in-process.js";

const tempDir = useTempDirs();
const catdoc = (args: string[], options: { cwd: string }) => runInProcess(args, options.cwd);

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
    expect(result.stdout).toMatch(
      /^Dry run: nothing written\.\nCategory for documents naming none: reqs \(created\); 2 Markdown file\(s\) read\.\n/,
    );
    expect(result.stdout).toMatch(/Categories would be created \(1\):\n {2}ID +NAME +NAMED BY\n {2}reqs +Requirements +argument\n/);
    expect(result.stdout).toMatch(/Objects would be added \(2\):\n {2}ID +CATEGORY +WHY +TITLE +DOMAIN +PATH\n/);
    expect(result.stdout).toContain(
      "req-auth-system      reqs      argument  認証システム要件  requirements  docs/requirements/auth-system.md",
    );
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
    expect(unknown.stderr).toBe(
      "catdoc: Category 'nope' not found (given as --category <id>): the project has no categories yet; add --create-category to create it\n",
    );
    // An optional value must not swallow a path.
    const swallowed = await catdoc(["import", "docs/requirements/auth-system.md", "--create-category", "docs/specs"], { cwd: root });
    expect(swallowed.code).toBe(2);
    expect(swallowed.stderr).toMatch(/^catdoc: USAGE: --create-category takes an optional category name, not a path \('docs\/specs'\)/);
    const none = await catdoc(["import", "docs/requirements"], { cwd: root });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^catdoc: USAGE: The project has no category yet and 2 document\(s\) name no category .*give --category <id> with --create-category/,
    );
    expect(await categoryFile(root)).toBe(before);
  });

  it("sends documents to the categories their frontmatter names and proposes, then applies, functor mappings across them", async () => {
    const root = await tempDir();
    expect((await catdoc(["init"], { cwd: root })).code).toBe(0);
    const files: Record<string, string> = {
      "docs/req/login.md": "---\nid: req-login\ncategory: requirements\n---\n# Log in\n",
      "docs/tests/login.md": "---\nid: test-login\ncategory: tests\n---\n# Login test\nCovers @req-login.\n",
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const before = await categoryFile(root);
    const refused = await catdoc(["import", "docs"], { cwd: root });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^catdoc: Category 'requirements' not found \(named by the frontmatter of docs\/req\/login\.md\).*--create-category/,
    );
    expect(await categoryFile(root)).toBe(before);

    const created = await catdoc(["import", "docs", "--create-category"], { cwd: root });
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("Category for documents naming none: none (each document names its own)");
    expect(created.stdout).toMatch(/requirements +Requirements +frontmatter category of docs\/req\/login\.md/);
    expect(created.stdout).toMatch(/test-login +tests +frontmatter category +Login test/);
    expect(created.stdout).toMatch(/no functor +test-login covers req-login +requirements → tests: req-login ↦ test-login/);
    // The way on, once per category pair (not once per row): the command that creates the functor the proposals need.
    const create =
      "catdoc add functor requirements-to-tests --name 'requirements to tests' --source-category requirements --target-category tests";
    expect(created.stdout.split(create)).toHaveLength(2);

    const yaml = await categoryFile(root);
    await writeFile(
      join(root, ".catdoc", "category.yaml"),
      yaml.replace(
        "functors: []",
        "functors:\n  - id: verify\n    name: Verify\n    sourceCategory: requirements\n    targetCategory: tests\n    objectMapping: {}\n    morphismMapping: {}",
      ),
    );
    const proposed = await catdoc(["import", "docs/tests"], { cwd: root });
    expect(proposed.stdout).toContain("(--apply-proposals writes those proposed)");
    expect(proposed.stdout).toMatch(/proposed +test-login covers req-login +requirements → tests: req-login ↦ test-login +verify$/m);
    const applied = await catdoc(["import", "docs/tests", "--apply-proposals", "--format", "json"], { cwd: root });
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ written: true, proposals: [{ functorId: "verify", status: "applied" }] });
    expect(await categoryFile(root)).toMatch(/objectMapping:\n +req-login: test-login\n/);
  });
});
