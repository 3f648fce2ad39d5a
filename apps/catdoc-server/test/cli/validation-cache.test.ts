/**
 * `catdoc validate` as whole processes with the validation cache (src/domain/validate/
 * validation-cache.ts): a large project's law report and its issues table are kept after the first
 * run, printed as they were by the next runs of the same category.yaml, scope and build, never for
 * another; suspect links are computed afresh on every run. The entry the built CLI uses is shown
 * to be what it prints by replacing it with a signed entry of a marker table (the dist build's
 * own writer, this user's secret); an entry edited by anyone else is ignored.
 */
import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeGeneratedProject } from "../../src/testing/generate-project.js";
import { useTempDirs } from "../domain/helpers.js";
import { assertBuilt, catdoc } from "./run-catdoc.js";

beforeAll(assertBuilt);
const tempDir = useTempDirs();
// 1,000 morphisms: a project the cache keeps (MIN_CACHED_MORPHISMS).
const SIZE = { objects: 200, morphisms: 1000, functors: 4, seed: 5 };

interface Dist {
  projectPaths(root: string): unknown;
  validationCacheFile(paths: unknown, part: "table" | "report"): string;
  writeValidationTable(paths: unknown, key: unknown, report: unknown, table: Uint8Array): Promise<boolean>;
}
/** The built app's domain (the same code, chunks and cache secret the CLI uses). */
const dist = async () => (await import(new URL("../../dist/domain/index.js", import.meta.url).href)) as Dist;

async function entryHeader(file: string): Promise<{ key: unknown }> {
  const bytes = await readFile(file);
  return JSON.parse(bytes.subarray(0, bytes.indexOf(0x0a)).toString("utf8")) as { key: unknown };
}

const run = (root: string, ...args: string[]) => catdoc(["--project", root, "validate", ...args], { cwd: root });

describe("catdoc validate with the validation cache", () => {
  it("prints the first run's table and report again, from the entry it left, and only for the same category.yaml", async () => {
    const root = await tempDir();
    await writeGeneratedProject(root, SIZE);
    const first = await run(root);
    expect(first.stdout).toMatch(/^SEVERITY\s+CODE\s+IDS\s+MESSAGE$/m);
    const firstJson = await run(root, "--format", "json");
    const { projectPaths, validationCacheFile, writeValidationTable } = await dist();
    const paths = projectPaths(root);
    const tableFile = validationCacheFile(paths, "table");
    const { key } = await entryHeader(tableFile);
    expect(key).toMatchObject({ scope: "project", code: expect.stringMatching(/^chunk-\w{8}\.js validation-table-\w{8}\.js$/) });

    // Again: the same bytes, the same exit status, table and JSON.
    expect(await run(root)).toEqual(first);
    expect(await run(root, "--format", "json")).toEqual(firstJson);

    // What the cache holds is what is printed: a signed entry of a marker table for this key.
    const report = JSON.parse(firstJson.stdout) as Record<string, unknown>;
    delete report["changeImpact"];
    expect(await writeValidationTable(paths, key, report, Buffer.from("MARKER TABLE\n"))).toBe(true);
    const marked = await run(root);
    expect(marked.stdout.startsWith("MARKER TABLE\n\n")).toBe(true);
    expect(marked.stdout.endsWith(first.stdout.slice(first.stdout.lastIndexOf("\n", first.stdout.length - 2) + 1))).toBe(true);

    // An entry edited by anyone without the secret (same length) is ignored: the real table again.
    const bytes = await readFile(tableFile);
    await writeFile(tableFile, Buffer.from(bytes.toString("latin1").replace("MARKER TABLE", "FORGED TABLE"), "latin1"));
    expect(await run(root)).toEqual(first);

    // Another scope is another entry.
    const category = await run(root, "--category", "cat-1");
    expect(category.stdout).not.toBe(first.stdout);
    expect((await entryHeader(tableFile)).key).toMatchObject({ scope: "category:cat-1" });
    expect(await run(root, "--category", "cat-1")).toEqual(category);

    // A changed category.yaml is validated afresh, even with a marker entry for the old content.
    expect(await writeValidationTable(paths, key, report, Buffer.from("MARKER TABLE\n"))).toBe(true);
    await appendFile(join(root, ".catdoc", "category.yaml"), "# edited\n");
    const edited = await run(root);
    expect(edited.stdout).not.toContain("MARKER");
    await rm(join(root, ".catdoc", "cache"), { recursive: true });
    expect(await run(root)).toEqual(edited);
    expect(edited).toEqual(first);
  }, 120_000);

  it("computes suspect links afresh on a run the cache serves", async () => {
    const root = await tempDir();
    await writeGeneratedProject(root, SIZE);
    await mkdir(join(root, "docs"));
    for (const id of ["c0-o0", "c0-o1", "c0-o2"]) {
      // Their documents in files (inline content would take precedence).
      await writeFile(join(root, "docs", `${id}.md`), `# ${id}\n\nAs written.\n`);
      expect((await catdoc(["--project", root, "update", "object", id, "--content", ""], { cwd: root })).code).toBe(0);
    }
    expect((await catdoc(["--project", root, "review", "--all"], { cwd: root })).code).toBe(0);
    const reviewed = await run(root);
    expect(reviewed.stdout).not.toContain("SUSPECT_LINK");
    expect(await run(root)).toEqual(reviewed); // from the cache

    await writeFile(join(root, "docs", "c0-o1.md"), "# c0-o1\n\nChanged since the review.\n");
    const suspect = await run(root);
    expect(suspect.stdout).toMatch(/^warning\s+SUSPECT_LINK\s+link=\S+ documents=c0-o1\s/m);
    const suspectJson = await run(root, "--format", "json");
    await rm(join(root, ".catdoc", "cache"), { recursive: true });
    expect(await run(root)).toEqual(suspect);
    expect(await run(root, "--format", "json")).toEqual(suspectJson);
  }, 120_000);
});
