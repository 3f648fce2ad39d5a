import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCatalog } from "../../src/domain/catalog/build-catalog.js";
import type { Catalog } from "../../src/domain/catalog/catalog-schema.js";
import { writeCatalogFile } from "../../src/domain/catalog/catalog-file.js";
import { scanRepository } from "../../src/domain/catalog/scan-repository.js";

/** The fixture repository: TypeScript with recognisable conventions and patterns, plus a Python file. */
export const FIXTURE_REPO = fileURLToPath(new URL("../fixtures/sample-repo", import.meta.url));
/** The catalog of the fixture, checked by eye once and asserted byte for byte. */
export const FIXTURE_CATALOG = fileURLToPath(new URL("../fixtures/sample-repo.catalog.json", import.meta.url));

/**
 * A copy of the fixture in a temporary directory, with what the indexer must leave out added
 * (git ignores these in the real repository, so they are made here): node_modules, dist, .git,
 * a minified bundle and a file above the size limit.
 */
export function copyFixtureRepo(prefix = "mochi-repo-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(FIXTURE_REPO, dir, { recursive: true });
  const add = (path: string, text: string) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  add("node_modules/left-pad/index.js", "module.exports = function createPadding() {};\n");
  add("dist/index.js", "export function createBuilt() { return {}; }\n");
  add(".git/hooks/pre-commit.py", "def create_hook():\n    pass\n");
  add("src/vendor.min.js", "function createMin(){return{}}\n");
  add("src/huge-table.ts", `export const HUGE = [${"0,".repeat(300_000)}];\n`);
  return dir;
}

/** Indexes `repo` into `<repo>/.mochi/catalog.json` and returns the catalog. */
export async function indexInto(repo: string, out = join(repo, ".mochi", "catalog.json")): Promise<Catalog> {
  const catalog = buildCatalog(await scanRepository(repo));
  writeCatalogFile(out, catalog);
  return catalog;
}
