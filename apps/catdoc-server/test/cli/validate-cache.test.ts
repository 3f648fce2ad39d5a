/**
 * `catdoc validate` as whole processes with the parsed-YAML cache (src/domain/parsed-cache.ts),
 * observed through what each process loads (core's load observer): the first run parses
 * category.yaml — it loads src/domain/yaml-positions.ts, the parser with positions, which only a
 * parse loads — and leaves `.catdoc/cache/parsed-yaml.cache`; the next runs never load it and
 * print the same report. Concurrent first runs agree and leave
 * an entry the next run uses; a change of the same size and mtime is validated fresh; an invalid
 * file's error names the same line and column every time, with or without the cache.
 */
import { readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runObserved } from "@local-mcp/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { writeGeneratedProject } from "../../src/testing/generate-project.js";
import { useTempDirs } from "../domain/helpers.js";
import { CLI, assertBuilt, catdoc } from "./run-catdoc.js";

beforeAll(assertBuilt);
const tempDir = useTempDirs();
const SIZE = { objects: 200, morphisms: 1000, functors: 4, seed: 5 };

async function generated(): Promise<string> {
  const root = await tempDir();
  await writeGeneratedProject(root, SIZE);
  return root;
}

const validate = (root: string) => ["--project", root, "validate", "--format", "json"];
/** The module that parses category.yaml (with positions); it has a chunk of its own in the bundle (bundle-inputs.json). */
const PARSER = "src/domain/yaml-positions.ts";
const cacheFile = (root: string) => join(root, ".catdoc", "cache", "parsed-yaml.cache");

describe("catdoc validate with the parsed-YAML cache", () => {
  it("the first run parses and writes the cache; the next runs load no parser and print the same report", async () => {
    const root = await generated();
    const first = await runObserved(CLI, validate(root));
    expect(first.code, first.stderr).toBe(0);
    expect(first.sources.has(PARSER)).toBe(true);
    expect((await stat(cacheFile(root))).size).toBeGreaterThan(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ isValid: true, summary: { categoriesChecked: SIZE.functors } });

    for (let run = 0; run < 2; run += 1) {
      const next = await runObserved(CLI, validate(root));
      expect(next.code).toBe(0);
      // The parser loaded here means the project was parsed again (or the read path imports it eagerly).
      expect([...next.sources]).not.toContain(PARSER);
      // Nor the yaml package at all: change impact hashes documents without loading their parser.
      expect([...next.packages]).not.toContain("yaml");
      // Nor the MCP SDK (a server's code): validate reaches core through its light entries (files, config).
      expect([...next.packages].filter((name) => name.startsWith("@modelcontextprotocol/"))).toEqual([]);
      expect(first.packages.has("@modelcontextprotocol/server") || first.packages.has("@modelcontextprotocol/core")).toBe(false);
      expect(next.stdout).toBe(first.stdout);
      expect(next.stderr).toBe(first.stderr);
    }
  });

  it("concurrent first runs all print the report and leave an entry the next run uses", async () => {
    const root = await generated();
    const runs = await Promise.all(Array.from({ length: 4 }, () => catdoc(validate(root), { cwd: root })));
    const reference = await catdoc(validate(root), { cwd: root });
    for (const run of runs) expect(run).toEqual(reference);
    const next = await runObserved(CLI, validate(root));
    expect([...next.sources]).not.toContain(PARSER);
    expect(next.stdout).toBe(reference.stdout);
  });

  it("validates a change of the same size and mtime fresh", async () => {
    const root = await generated();
    const file = join(root, ".catdoc", "category.yaml");
    const when = new Date("2026-01-01T00:00:00Z"); // whole seconds: every file system keeps them exactly
    await utimes(file, when, when);
    expect((await catdoc(validate(root), { cwd: root })).code).toBe(0);
    const before = await stat(file);
    const text = await readFile(file, "utf8");
    const broken = text.replace("target: c1-o0\n", "target: c1-x0\n"); // an identity now ends at no object
    expect(broken.length).toBe(text.length);
    await writeFile(file, broken);
    await utimes(file, when, when);
    expect(await stat(file)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });

    const after = await runObserved(CLI, validate(root));
    expect(after.code).toBe(1);
    expect(after.sources.has(PARSER)).toBe(true);
    const report = JSON.parse(after.stdout) as { isValid: boolean; errors: Array<{ message: string }> };
    expect(report.isValid).toBe(false);
    expect(report.errors.map((error) => error.message).join("\n")).toContain("c1-x0");
    await rm(join(root, ".catdoc", "cache"), { recursive: true });
    expect(await catdoc(validate(root), { cwd: root })).toEqual({ code: after.code, stdout: after.stdout, stderr: after.stderr });
  });

  it("reports an invalid file at the same line and column on every run, with or without the cache", async () => {
    const root = await generated();
    expect((await catdoc(validate(root), { cwd: root })).code).toBe(0); // an entry for the valid version
    const file = join(root, ".catdoc", "category.yaml");
    const lines = (await readFile(file, "utf8")).split("\n");
    const at = lines.findLastIndex((line) => line.trimStart().startsWith("domain: "));
    lines[at] = lines[at]!.replace(/domain: .*/, "domain: {}");
    await writeFile(file, lines.join("\n"));

    const first = await catdoc(validate(root), { cwd: root });
    expect(first.code).not.toBe(0);
    expect(first.stdout).toBe("");
    expect(first.stderr.trim().split("\n")).toHaveLength(1);
    expect(first.stderr).toContain(`category.yaml:${at + 1}:`);
    expect(await catdoc(validate(root), { cwd: root })).toEqual(first);
    await rm(join(root, ".catdoc", "cache"), { recursive: true });
    expect(await catdoc(validate(root), { cwd: root })).toEqual(first);
  });
});
