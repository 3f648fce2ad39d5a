import { join, resolve } from "node:path";
import { buildCatalog } from "../domain/catalog/build-catalog.js";
import type { Catalog } from "../domain/catalog/catalog-schema.js";
import { writeCatalogFile } from "../domain/catalog/catalog-file.js";
import { scanRepository, type RepositoryScan } from "../domain/catalog/scan-repository.js";
import { LANGUAGES } from "../domain/files/languages.js";
import { repositoryRoot } from "./repository-root.js";
import { StderrProgress } from "./stderr-progress.js";

export interface IndexCommandOptions {
  out?: string;
  quiet?: boolean;
}

/** Scans a repository with progress on stderr (for runs over a second) and builds its catalog. */
export async function indexRepository(
  repo: string,
  quiet: boolean,
  label = "mochi index",
): Promise<{ scan: RepositoryScan; catalog: Catalog; ms: number }> {
  const started = performance.now();
  const progress = new StderrProgress(label, !quiet);
  const scan = await scanRepository(repositoryRoot(repo), { onProgress: ({ done, total }) => progress.update(done, total) });
  progress.finish(scan.files.length);
  return { scan, catalog: buildCatalog(scan), ms: performance.now() - started };
}

/** `mochi index <repo>`: writes `<repo>/.mochi/catalog.json` (or `--out`) and prints a summary on stdout. */
export async function runIndexCommand(repo: string, options: IndexCommandOptions): Promise<void> {
  const root = repositoryRoot(repo);
  const out = resolve(options.out ?? join(root, ".mochi", "catalog.json"));
  const { catalog, ms } = await indexRepository(root, options.quiet ?? false);
  writeCatalogFile(out, catalog);
  const languages = Object.entries(catalog.stats.languages)
    .map(([language, s]) => `${language} ${s.files}`)
    .join(", ");
  if (catalog.stats.files === 0) {
    process.stdout.write(
      `Indexed 0 files in ${(ms / 1000).toFixed(2)} s → ${out}\n` +
        `${root} has no source files mochi reads (${LANGUAGES.join(", ")}${catalog.stats.skippedLargeFiles > 0 ? `; ${catalog.stats.skippedLargeFiles} large files skipped` : ""}): ` +
        `0 conventions, 0 patterns, 0 examples\n`,
    );
    return;
  }
  process.stdout.write(
    `Indexed ${catalog.stats.files} files (${languages}) in ${(ms / 1000).toFixed(2)} s → ${out}\n` +
      `version ${catalog.version}: ${catalog.conventions.length} conventions, ${catalog.patterns.length} patterns, ${catalog.examples.length} examples` +
      `${catalog.stats.skippedLargeFiles > 0 ? `; ${catalog.stats.skippedLargeFiles} large files skipped` : ""}\n`,
  );
}
