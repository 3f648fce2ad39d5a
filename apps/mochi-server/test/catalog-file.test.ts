/**
 * writeCatalogFile: the catalog is replaced whole, and a temporary file a killed `mochi index`
 * left behind (kill -9 between writing it and the rename) is removed by the next write.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readCatalogFile, writeCatalogFile } from "../src/domain/catalog/catalog-file.js";
import { serializeCatalog } from "../src/domain/catalog/build-catalog.js";
import { FIXTURE_CATALOG } from "./helpers/sample-repo.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mochi-catalog-file-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("writeCatalogFile", () => {
  it("replaces the catalog and removes the temporary file of a killed write", () => {
    const catalog = readCatalogFile(FIXTURE_CATALOG);
    const out = join(dir, ".mochi", "catalog.json");
    mkdirSync(join(dir, ".mochi"));
    writeFileSync(out, '{ "an older catalog": true }\n');
    // A finished child's pid stands for an indexer killed with -9 before its rename.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const left = `.catalog.json.${dead}.0123456789ab.tmp`;
    writeFileSync(join(dir, ".mochi", left), '{"version": "half');

    writeCatalogFile(out, catalog);
    expect(readFileSync(out, "utf8")).toBe(serializeCatalog(catalog));
    expect(readdirSync(join(dir, ".mochi"))).toEqual(["catalog.json"]);
  });
});
