/**
 * A large project to import into, for the fault and concurrency tests of `catdoc import`: a
 * generated category.yaml (src/testing/generate-project.ts, ~300 KB and growing with each import,
 * so every write of it takes real time) plus batches of Markdown documents under docs/batch-<k>/, each document pointing
 * to two others of its batch (@id and [[title]]), so an import adds objects and morphisms.
 */
import { cp, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeGeneratedProject } from "../../src/testing/generate-project.js";
import { importDocuments } from "../../src/domain/import/index.js";
import { CatDocStore } from "../../src/domain/index.js";

export const IMPORT_CATEGORY = { id: "imported", name: "Imported" };

export interface GeneratedImportProject {
  root: string;
  categoryFile: string;
  /** The object ids batch k's documents become. */
  batchIds(batch: number): string[];
}

export async function generateImportProject(
  root: string,
  options: { batches: number; documentsEach: number },
): Promise<GeneratedImportProject> {
  await writeGeneratedProject(root, { objects: 600, morphisms: 1200, functors: 2 });
  const n = options.documentsEach;
  for (let b = 0; b < options.batches; b++) {
    const dir = join(root, "docs", `batch-${b}`);
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < n; i++) {
      await writeFile(
        join(dir, `doc-${i}.md`),
        `---\nid: b${b}-d${i}\ntitle: Batch ${b} document ${i}\ndomain: imported\ntags: [fault, batch-${b}]\n---\n` +
          `# Document ${i}\n\nSee @b${b}-d${(i + 1) % n} and [[Batch ${b} document ${(i + 7) % n}]].\n`,
      );
    }
  }
  return {
    root,
    categoryFile: join(root, ".catdoc", "category.yaml"),
    batchIds: (batch) => Array.from({ length: n }, (_, i) => `b${batch}-d${i}`),
  };
}

/** The CLI's arguments that import batch k into the import category (creating it if needed). */
export function importArgs(batch: number): string[] {
  return ["import", `docs/batch-${batch}`, "--category", IMPORT_CATEGORY.id, "--create-category", IMPORT_CATEGORY.name, "--format", "json"];
}

/**
 * The category.yaml text that importing batch k into `before` produces (the import is
 * deterministic): the same import run in process on a copy of the project.
 */
export async function expectedAfterImport(
  project: GeneratedImportProject,
  before: string,
  batch: number,
  scratch: string,
): Promise<string> {
  await mkdir(join(scratch, ".catdoc"), { recursive: true });
  await writeFile(join(scratch, ".catdoc", "category.yaml"), before);
  await cp(join(project.root, "docs"), join(scratch, "docs"), { recursive: true });
  await importDocuments(new CatDocStore(scratch), {
    paths: [join(scratch, "docs", `batch-${batch}`)],
    categoryId: IMPORT_CATEGORY.id,
    createCategory: { name: IMPORT_CATEGORY.name },
  });
  return readFile(join(scratch, ".catdoc", "category.yaml"), "utf8");
}

/** Files an interrupted atomic write left in `.catdoc` (`.category.yaml.<pid>.<hex>.tmp`). */
export async function leftoverTempFiles(root: string): Promise<string[]> {
  return (await readdir(join(root, ".catdoc"))).filter((name) => name.endsWith(".tmp"));
}
