import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { contentHash, stableStringify } from "@local-mcp/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildCatalog, serializeCatalog } from "../src/domain/catalog/build-catalog.js";
import { readCatalogFile } from "../src/domain/catalog/catalog-file.js";
import { scanRepository } from "../src/domain/catalog/scan-repository.js";
import { copyFixtureRepo, FIXTURE_CATALOG } from "./helpers/sample-repo.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function fixtureCopy(): string {
  const dir = copyFixtureRepo();
  made.push(dir);
  return dir;
}

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe("mochi index on the fixture repository", () => {
  it("produces exactly the catalog checked in next to the fixture", async () => {
    const bytes = serializeCatalog(buildCatalog(await scanRepository(fixtureCopy())));
    expect(bytes).toBe(readFileSync(FIXTURE_CATALOG, "utf8"));
  });

  it("finds the fixture's conventions", () => {
    const catalog = readCatalogFile(FIXTURE_CATALOG);
    const rules = (name: string) => catalog.conventions.find((c) => c.name === name)?.rules.join("\n") ?? "";
    expect(rules("naming")).toContain("TypeScript file names are kebab-case: 11 of 11");
    expect(rules("naming")).toContain("TypeScript classes are PascalCase: 6 of 6");
    expect(rules("naming")).toContain("TypeScript functions are camelCase: 10 of 10");
    expect(rules("naming")).toContain("Python functions are snake_case: 3 of 3 (100%), e.g. load_rows, build_report, write_report");
    expect(rules("naming")).toContain("Python module-level constants are UPPER_SNAKE_CASE: 2 of 2");
    expect(rules("imports")).toContain("Relative imports carry the .js extension (14 of 14, NodeNext style)");
    expect(rules("imports")).toContain("Types are imported with `import type` (3 type-only imports)");
    expect(rules("tests")).toContain("Tests live in separate test directories (2 of 2): test (2)");
    expect(rules("tests")).toContain("Framework: vitest (2)");
    expect(rules("file-layout")).toContain("Source files sit in src/ or lib/ directories: 9 of 10 non-test files (90%), in src (9)");
    expect(rules("error-handling")).toContain("Custom error classes: AppError, ExportError, NotFoundError, ReportError, ValidationError");
    expect(rules("error-handling")).toContain("of their 4 catch blocks 3 rethrow or wrap, 1 return a fallback");
  });

  it("finds the fixture's patterns with the TypeScript parser and the Python heuristic", () => {
    const catalog = readCatalogFile(FIXTURE_CATALOG);
    const byName = new Map(catalog.patterns.map((p) => [p.name, p]));
    expect([...byName.keys()]).toEqual([
      "abort-signal",
      "custom-error-class",
      "definition-object",
      "discriminated-union",
      "disposable-resource",
      "error-handling",
      "factory-function",
      "options-object",
      "registry",
      "result-type",
    ]);
    expect(byName.get("custom-error-class")?.locations.map((l) => l.symbol)).toEqual([
      "ReportError",
      "ExportError",
      "AppError",
      "NotFoundError",
      "ValidationError",
    ]);
    expect(byName.get("custom-error-class")?.languages).toEqual(["typescript", "python"]);
    expect(byName.get("registry")?.locations.map((l) => l.symbol)).toEqual(["ALL_COMMANDS", "handlers", "registerHandler"]);
    // Every pattern's example is an example entry whose code is the real snippet.
    const examples = new Map(catalog.examples.map((e) => [e.id, e]));
    for (const pattern of catalog.patterns) {
      const example = examples.get(pattern.example);
      expect(example?.shows).toContain(pattern.name);
    }
    expect(examples.get("src-errors-ts--app-error")?.code).toMatch(/^export class AppError extends Error \{/);
    expect(examples.get("src-errors-ts--app-error")?.doc).toBe(
      "Base class of every failure this library reports, with a machine-readable code.",
    );
    expect(examples.get("scripts-report-py--load-rows")?.code).toBe(
      'try:\n    data = json.loads(path.read_text())\nexcept (OSError, ValueError) as error:\n    raise ReportError(f"cannot read {path}") from error',
    );
  });

  it("versions the catalog by the content hash of everything else", () => {
    const catalog = readCatalogFile(FIXTURE_CATALOG);
    const { version, ...content } = catalog;
    expect(version).toBe(contentHash(stableStringify(content)));
  });

  it("leaves out node_modules, dist, hidden directories, .gitignore'd paths, minified and oversized files", () => {
    const catalog = readCatalogFile(FIXTURE_CATALOG);
    const text = JSON.stringify(catalog);
    for (const excluded of [
      "node_modules",
      "dist/",
      ".git/",
      "generated/",
      "vendor.min.js",
      "huge-table",
      "createGeneratedThing",
      "createPadding",
    ]) {
      expect(text).not.toContain(excluded);
    }
    expect(catalog.stats.files).toBe(12);
    expect(catalog.stats.skippedLargeFiles).toBe(1);
  });

  it("is deterministic: another copy, made in another order at another time, gives the same bytes", async () => {
    const first = fixtureCopy();
    const second = mkdtempSync(join(tmpdir(), "mochi-reverse-"));
    made.push(second);
    // Every file of the first copy, written in reverse order, so directory order on disk differs.
    const files = readdirSync(first, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    for (const entry of files.reverse()) {
      const path = relative(first, join(entry.parentPath, entry.name));
      mkdirSync(join(second, path, ".."), { recursive: true });
      writeFileSync(join(second, path), readFileSync(join(first, path)));
    }
    const a = serializeCatalog(buildCatalog(await scanRepository(first)));
    const b = serializeCatalog(buildCatalog(await scanRepository(second)));
    expect(b).toBe(a);
    expect(serializeCatalog(buildCatalog(await scanRepository(first)))).toBe(a);
  });

  it("reports progress per file", async () => {
    const seen: number[] = [];
    const scan = await scanRepository(fixtureCopy(), { onProgress: ({ done, total }) => seen.push(done / total) });
    expect(seen).toHaveLength(scan.files.length);
    expect(seen.at(-1)).toBe(1);
  });

  it("the CLI writes <repo>/.mochi/catalog.json and summarises on stdout", async () => {
    const repo = fixtureCopy();
    const run = await runCli(["index", repo]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Indexed 12 files \(typescript 11, python 1\) in [\d.]+ s → .*\.mochi\/catalog\.json\nversion sha256:[0-9a-f]{16}: 5 conventions, 10 patterns, \d+ examples; 1 large files skipped\n$/,
    );
    expect(readFileSync(join(repo, ".mochi", "catalog.json"), "utf8")).toBe(readFileSync(FIXTURE_CATALOG, "utf8"));
    // Indexing again does not read its own output.
    await runCli(["index", repo, "--quiet"]);
    expect(readFileSync(join(repo, ".mochi", "catalog.json"), "utf8")).toBe(readFileSync(FIXTURE_CATALOG, "utf8"));
  });

  it("the CLI fails with status 2 on bad usage, a missing repository included (one coded line, see cli.test.ts)", async () => {
    expect((await runCli(["index"])).code).toBe(2);
    const missing = await runCli(["index", join(tmpdir(), "no-such-repo-mochi")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^mochi: NOT_FOUND: /);
  });
});
