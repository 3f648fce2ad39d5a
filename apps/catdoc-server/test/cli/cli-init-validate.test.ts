/** `catdoc init` and `catdoc validate` through the built bin, on temporary projects. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { copyExample, useTempDirs, validModel, writeProject } from "../domain/helpers.js";
import { assertBuilt, catdoc } from "./run-catdoc.js";

beforeAll(assertBuilt);
const tempDir = useTempDirs();

describe("catdoc init", () => {
  it("creates category.yaml and config.yaml that validate, and refuses to overwrite without --force", async () => {
    const root = await tempDir();
    const first = await catdoc(["init", "--name", "Handbook"], { cwd: root });
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toContain(`Initialized CatDoc project at ${root}`);
    expect(first.stdout).toContain("wrote .catdoc/category.yaml");
    expect(await readFile(join(root, ".catdoc", "config.yaml"), "utf8")).toContain("name: Handbook");

    const validated = await catdoc(["validate", "--format", "json"], { cwd: root });
    expect(validated.code).toBe(0);
    expect(JSON.parse(validated.stdout)).toMatchObject({ isValid: true, errors: [], warnings: [] });

    const again = await catdoc(["init"], { cwd: root });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
    expect(again.stderr).toContain("already initialized");
    expect(again.stderr).toContain("--force");

    const forced = await catdoc(["init", "--force"], { cwd: root });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("Reinitialized");
  });

  it("initializes the folder named by --project, relative to the working directory", async () => {
    const parent = await tempDir();
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(parent, "docs-project"));
    const result = await catdoc(["--project", "docs-project", "init"], { cwd: parent });
    expect(result.code).toBe(0);
    expect(await readFile(join(parent, "docs-project", ".catdoc", "category.yaml"), "utf8")).toContain("categories: []");
  });
});

describe("catdoc validate", () => {
  it("math-docs: valid with exactly 3 MISSING_COMPOSITION warnings (JSON), exit 0", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const result = await catdoc(["validate", "--format", "json"], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout) as {
      isValid: boolean;
      errors: unknown[];
      warnings: Array<{ code: string; message: string }>;
      summary: Record<string, number>;
    };
    expect(report.isValid).toBe(true);
    expect(report.errors).toEqual([]);
    expect(report.warnings.map((w) => w.code)).toEqual(["MISSING_COMPOSITION", "MISSING_COMPOSITION", "MISSING_COMPOSITION"]);
    expect(report.warnings[0]?.message).toBe("Missing composition: group-to-ring∘set-to-group (sets → rings)");
    expect(report.summary).toMatchObject({ categoriesChecked: 2, functorsChecked: 1, totalErrors: 0, totalWarnings: 3 });
  });

  it("math-docs: a readable table with codes, ids and messages and a summary line; --strict fails on the warnings", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const table = await catdoc(["validate"], { cwd: root });
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SEVERITY\s+CODE\s+IDS\s+MESSAGE$/);
    expect(lines.filter((line) => line.startsWith("warning   MISSING_COMPOSITION"))).toHaveLength(3);
    expect(table.stdout).toContain("category=algebra morphisms=set-to-group,group-to-ring");
    expect(table.stdout).toContain("Missing composition: ring-to-field∘group-to-ring (groups → fields)");
    expect(lines.at(-1)).toBe("VALID: 0 errors, 3 warnings (2 categories, 1 functor, 0 natural transformations checked)");

    const strict = await catdoc(["validate", "--strict"], { cwd: root });
    expect(strict.code).toBe(1);
    expect(strict.stdout.trimEnd().split("\n").at(-1)).toMatch(/^FAILED \(--strict: warnings count\): 0 errors, 3 warnings/);
    const strictJson = await catdoc(["validate", "--strict", "--format", "json"], { cwd: root });
    expect(strictJson.code).toBe(1);
    expect(JSON.parse(strictJson.stdout)).toMatchObject({ isValid: true });
  });

  it("dev-project: valid, no warnings, even with --strict", async () => {
    const root = await copyExample(await tempDir(), "dev-project");
    const result = await catdoc(["validate", "--strict"], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("VALID: 0 errors, 0 warnings (5 categories, 4 functors, 0 natural transformations checked)\n");
  });

  it("an invalid project exits 1 and names each error's code and ids", async () => {
    const model = validModel();
    const C = model.categories[0];
    if (C === undefined) throw new Error("fixture changed");
    C.morphisms = C.morphisms.filter((m) => m.id !== "id-b");
    C.morphisms.push({ id: "dangling", name: "dangling", source: "a", target: "nowhere" });
    const root = await writeProject(await tempDir(), stringify(model));
    const result = await catdoc(["validate"], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^error\s+MISSING_IDENTITY\s+category=C object=b\s+/m);
    expect(result.stdout).toMatch(/^error\s+UNDEFINED_ENDPOINT\s+category=C (object=nowhere )?morphism=dangling\s+/m);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toMatch(
      /^INVALID: \d+ errors?, \d+ warnings? \(2 categories, 2 functors, 1 natural transformation checked\)$/,
    );
    const json = await catdoc(["validate", "--format", "json"], { cwd: root });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ isValid: false });
  });

  it("validates one category, functor or natural transformation; unknown ids exit 1", async () => {
    const root = await writeProject(await tempDir(), stringify(validModel()));
    const category = await catdoc(["validate", "--category", "D", "--format", "json"], { cwd: root });
    expect(JSON.parse(category.stdout)).toMatchObject({ isValid: true, summary: { categoriesChecked: 1, functorsChecked: 0 } });
    const functor = await catdoc(["validate", "--functor", "F", "--format", "json"], { cwd: root });
    expect(JSON.parse(functor.stdout)).toMatchObject({ summary: { categoriesChecked: 0, functorsChecked: 1 } });
    const nt = await catdoc(["validate", "--nt", "eta", "--format", "json"], { cwd: root });
    expect(JSON.parse(nt.stdout)).toMatchObject({ summary: { naturalTransformationsChecked: 1 } });
    const unknown = await catdoc(["validate", "--functor", "nope"], { cwd: root });
    expect(unknown).toEqual({ code: 1, stdout: "", stderr: "catdoc: Functor 'nope' not found\n" });
  });

  it("a malformed category.yaml exits 1 with file, line and column", async () => {
    const root = await writeProject(await tempDir(), "categories:\n  - id: a\n    name: [unclosed\n");
    const result = await catdoc(["validate"], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^catdoc: \.catdoc\/category\.yaml:\d+:\d+: /);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
