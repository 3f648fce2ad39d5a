/**
 * The validation cache: the law checks' report of a large project and the issues table `catdoc
 * validate` prints for it, kept in `.catdoc/cache/validation-table.cache` and
 * `.catdoc/cache/validation-report.cache`, so a process validating the same category.yaml again
 * neither runs the checks nor renders tens of thousands of rows (issue 17 item 8: whole-process
 * validate against the original's time). The table is printed as the bytes it was. Each is
 * written by the run that needed it: the table by a table run, the report by a JSON run or one
 * that found suspect links to add to it.
 *
 * The law checks depend on nothing but the model (./validate.ts takes only the project index), and
 * the model on nothing but category.yaml's bytes (the parsed-model cache, ../parsed-cache.ts, keys
 * it the same way). So an entry names:
 * - the sha256 of the exact category.yaml bytes the model was read from (`CatDocProject.version`),
 * - the scope validated (the project, or one category, functor or natural transformation),
 * - the code that checked and rendered: the content-hashed file names of the bundled chunks that
 *   hold the checks and the table rendering (esbuild's `chunks/[name]-[hash]`, whose hash covers
 *   the chunk and, through their hashed names, every chunk it imports). Run from source, the
 *   modules have no such names: nothing is cached then.
 * and is used only when all three equal the caller's. Suspect links are not in it: they depend on
 * the documents, and `catdoc validate` computes them afresh on every run. The entry is signed
 * with this user's secret (../signed-cache-entry.ts): one a project brings along, or an edited
 * one, is ignored. One entry per project in each file: the latest.
 */
import { join } from "node:path";
import type { ProjectPaths } from "../paths.js";
import { cacheDir, readSignedEntry, writeSignedEntry } from "../signed-cache-entry.js";
import type { ValidationReport, ValidationSummary } from "./issues.js";

export const VALIDATION_CACHE_FORMAT = "catdoc-validation";
/** Bumped whenever the entry's layout changes. */
export const VALIDATION_CACHE_VERSION = 1;
/** Projects with fewer morphisms are validated every time (milliseconds: less than reading an entry). */
export const MIN_CACHED_MORPHISMS = 1_000;

export interface ValidationCacheKey {
  /** sha256 (hex) of category.yaml's bytes. */
  category: string;
  /** `project`, or `category:<id>`, `functor:<id>`, `nt:<id>`. */
  scope: string;
  /** The bundled chunks of the checks and of the table rendering (see above). */
  code: string;
}

/** What the table entry holds. */
export interface CachedTable {
  readonly isValid: boolean;
  readonly summary: ValidationSummary;
  /** The rendered table of the report's issues, as UTF-8 (empty when there are none). */
  readonly table: Buffer;
}

interface EntryHeader extends Record<string, unknown> {
  format: string;
  version: number;
  /** `table` or `report`: what the data is. */
  part: "table" | "report";
  key: ValidationCacheKey;
  isValid: boolean;
  summary: ValidationSummary;
}

/** `<root>/.catdoc/cache/validation-<part>.cache` */
export function validationCacheFile(paths: ProjectPaths, part: EntryHeader["part"]): string {
  return join(cacheDir(paths), `validation-${part}.cache`);
}

const CHUNK_NAME = /\/chunks\/([\w.-]+-[A-Z2-7]{8}\.js)$/;

/**
 * The content-hashed name of the bundled chunk a module was loaded from (from its
 * `import.meta.url`); undefined when it was not loaded from one (run from source).
 */
export function bundledChunk(moduleUrl: string): string | undefined {
  return CHUNK_NAME.exec(new URL(moduleUrl).pathname)?.[1];
}

function isSummary(value: unknown): value is ValidationSummary {
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).every((count) => Number.isSafeInteger(count));
}

function accepts(key: ValidationCacheKey, part: EntryHeader["part"]) {
  return (header: Readonly<Record<string, unknown>>): header is EntryHeader => {
    const found = header.key as Partial<ValidationCacheKey> | undefined;
    return (
      header.format === VALIDATION_CACHE_FORMAT &&
      header.version === VALIDATION_CACHE_VERSION &&
      header.part === part &&
      typeof found === "object" &&
      found !== null &&
      found.category === key.category &&
      found.scope === key.scope &&
      found.code === key.code &&
      typeof header.isValid === "boolean" &&
      isSummary(header.summary)
    );
  };
}

function headerOf(key: ValidationCacheKey, part: EntryHeader["part"], report: Pick<ValidationReport, "isValid" | "summary">): EntryHeader {
  return {
    format: VALIDATION_CACHE_FORMAT,
    version: VALIDATION_CACHE_VERSION,
    part,
    key,
    isValid: report.isValid,
    summary: report.summary,
  };
}

/** The table entry for exactly `key`, when there is a whole one this user's CatDoc wrote; otherwise undefined (never throws). */
export async function readValidationTable(paths: ProjectPaths, key: ValidationCacheKey): Promise<CachedTable | undefined> {
  const entry = await readSignedEntry(validationCacheFile(paths, "table"), accepts(key, "table"));
  return entry === undefined ? undefined : { isValid: entry.header.isValid, summary: entry.header.summary, table: entry.payload };
}

/** The report entry for exactly `key` (see readValidationTable). */
export async function readValidationReport(paths: ProjectPaths, key: ValidationCacheKey): Promise<ValidationReport | undefined> {
  const entry = await readSignedEntry(validationCacheFile(paths, "report"), accepts(key, "report"));
  if (entry === undefined) return undefined;
  try {
    return JSON.parse(entry.payload.toString("utf8")) as ValidationReport;
  } catch {
    return undefined;
  }
}

/** Writes the table entry for `key` (replacing the project's previous one); false when it could not be written. */
export function writeValidationTable(
  paths: ProjectPaths,
  key: ValidationCacheKey,
  report: Pick<ValidationReport, "isValid" | "summary">,
  table: Uint8Array,
): Promise<boolean> {
  return writeSignedEntry(paths, validationCacheFile(paths, "table"), headerOf(key, "table", report), table);
}

/** Writes the report entry for `key` (replacing the project's previous one); false when it could not be written. */
export function writeValidationReport(paths: ProjectPaths, key: ValidationCacheKey, report: ValidationReport): Promise<boolean> {
  return writeSignedEntry(
    paths,
    validationCacheFile(paths, "report"),
    headerOf(key, "report", report),
    Buffer.from(JSON.stringify(report), "utf8"),
  );
}
