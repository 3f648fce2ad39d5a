/**
 * Three `catdoc import` processes (the built bin) import three batches into one large project at
 * the same moment. Each holds the project lock for a while (category.yaml is several hundred KB),
 * so the others must wait their turn: every process exits 0 with nothing on stderr (no error
 * reaches a caller), and every document of every batch is an object afterwards (0 lost writes —
 * an edit that read the file before another's write and wrote after it would drop that import).
 * The store-level twin with three writers adding objects one by one is
 * test/domain/concurrent-writers.test.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadProject, validateProject } from "../../src/domain/index.js";
import { generateImportProject, importArgs, leftoverTempFiles } from "./generated-import-project.js";
import type { GeneratedImportProject } from "./generated-import-project.js";
import { assertBuilt, catdoc } from "./run-catdoc.js";

const IMPORTERS = 3;

let scratchRoot: string;
let project: GeneratedImportProject;
beforeAll(async () => {
  assertBuilt();
  scratchRoot = await mkdtemp(join(tmpdir(), "catdoc-three-"));
  project = await generateImportProject(join(scratchRoot, "project"), { batches: IMPORTERS, documentsEach: 60 });
}, 60_000);
afterAll(() => rm(scratchRoot, { recursive: true, force: true }));

describe("three importers on one project", () => {
  it("all succeed and no import is lost", async () => {
    const runs = await Promise.all(Array.from({ length: IMPORTERS }, (_, batch) => catdoc(importArgs(batch), { cwd: project.root })));
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe("");
      expect((JSON.parse(run.stdout) as { written: boolean }).written).toBe(true);
    }
    const loaded = await loadProject(project.root);
    const ids = new Set(loaded.model.categories.flatMap((c) => c.objects.map((o) => o.id)));
    for (let batch = 0; batch < IMPORTERS; batch++)
      expect(
        project.batchIds(batch).filter((id) => !ids.has(id)),
        `batch ${batch}`,
      ).toEqual([]);
    expect(validateProject(loaded.index).isValid).toBe(true);
    expect(await leftoverTempFiles(project.root)).toEqual([]);
  }, 90_000);
});
