/**
 * The parsed-model cache: the models that parsing `.catdoc/category.yaml` and
 * `.catdoc/config.yaml` and checking them with their schemas gave, kept in
 * `.catdoc/cache/parsed-yaml.cache` so that a process reading the same bytes again skips the parse
 * (about a second for a 1.6 MB file), the schemas' checks, and does not even load the parser.
 *
 * It never serves a model of other content: an entry names the sha256 of the exact category.yaml
 * bytes and of the config.yaml text it was parsed from, and is used only when both equal those of
 * what the caller has just read (the same bytes it parses on a miss). It never serves a model made
 * by other code: the entry also names the schemas' fingerprint (./schema-fingerprint.ts), a format
 * version and the versions of the parser and of zod. The entry is signed with this user's secret
 * (./signed-cache-entry.ts), so a truncated, corrupt or foreign file is ignored (and replaced by the
 * next parse) — and so is an entry a project brings along: the cache sits in the project's folder,
 * which may come from anyone, but only this user's own parses can make an entry it uses, so a
 * planted one can never slip a model past the schemas. One entry per project: the latest.
 *
 * The models are kept as JSON when JSON holds them exactly (plain objects and lists, text,
 * booleans, null, finite numbers other than -0: JSON.parse reads them about three times faster),
 * else with v8.serialize, which gives back exactly what it was given (keys whose value is
 * undefined — an empty optional field —, -0, Infinity, NaN, dates); a value neither holds is not
 * cached.
 * Small files are not cached (parsing them costs less than the cache saves).
 */
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { ProjectPaths } from "./paths.js";
import { cacheDir, readSignedEntry, writeSignedEntry } from "./signed-cache-entry.js";

export { cacheSecretFile } from "./signed-cache-entry.js";

/** What the first line of an entry says it is. */
export const PARSED_CACHE_FORMAT = "catdoc-parsed-yaml";
/** Bumped whenever the entry's layout or the way the data is produced changes. */
export const PARSED_CACHE_VERSION = 5;
/**
 * The parser that produced the data (the `yaml` package this app bundles; a test checks it
 * against the installed one, so an upgrade invalidates older entries).
 */
export const YAML_PARSER = "yaml@2.9.1";
/** The schema library that checked and shaped the data (a test checks it against the installed one). */
export const SCHEMA_LIBRARY = "zod@4.6.7";
/** category.yaml below this size is parsed every time (≈ 40 ms of parsing). */
export const MIN_CACHED_BYTES = 64 * 1024;

/**
 * Which contents an entry holds: sha256 (hex) of category.yaml's bytes and of config.yaml's text
 * (null: no config.yaml), and the fingerprint of the schemas that made the models.
 */
export interface ParsedCacheKey {
  category: string;
  config: string | null;
  schemas: string;
}

/** The models of both files, as their schemas gave them. */
export interface ParsedData {
  category: unknown;
  config: unknown;
}

interface EntryHeader {
  format: string;
  version: number;
  parser: string;
  schemaLibrary: string;
  key: ParsedCacheKey;
  encoding: "json" | "v8";
}

/** `<root>/.catdoc/cache`: the folder (a `.gitignore` in it keeps it out of git). */
export function parsedCacheDir(paths: ProjectPaths): string {
  return cacheDir(paths);
}

/** `<root>/.catdoc/cache/parsed-yaml.cache` */
export function parsedCacheFile(paths: ProjectPaths): string {
  return join(parsedCacheDir(paths), "parsed-yaml.cache");
}

/** Whether the header is this format's, for exactly `key`'s contents. */
function acceptsKey(key: ParsedCacheKey) {
  return (header: Readonly<Record<string, unknown>>): header is EntryHeader & Record<string, unknown> => {
    const found = header.key as Partial<ParsedCacheKey> | undefined;
    return (
      header.format === PARSED_CACHE_FORMAT &&
      header.version === PARSED_CACHE_VERSION &&
      header.parser === YAML_PARSER &&
      header.schemaLibrary === SCHEMA_LIBRARY &&
      (header.encoding === "json" || header.encoding === "v8") &&
      typeof found === "object" &&
      found !== null &&
      found.category === key.category &&
      found.config === key.config &&
      found.schemas === key.schemas
    );
  };
}

/** Whether JSON.parse(JSON.stringify(value)) gives `value` back exactly (same types, same keys, same numbers). */
export function isExactJson(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i += 1) if (!(i in value) || !isExactJson(value[i])) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key of Reflect.ownKeys(value)) {
        if (typeof key !== "string" || key === "__proto__") return false;
        const descriptor = Object.getOwnPropertyDescriptor(value, key);
        if (descriptor === undefined || !descriptor.enumerable || !("value" in descriptor) || !isExactJson(descriptor.value)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** The entry's data when it is whole and holds exactly `key`'s contents; otherwise undefined (never throws). */
export async function readParsedCache(paths: ProjectPaths, key: ParsedCacheKey): Promise<ParsedData | undefined> {
  const entry = await readSignedEntry(parsedCacheFile(paths), acceptsKey(key));
  if (entry === undefined) return undefined;
  try {
    const data: unknown = entry.header.encoding === "json" ? JSON.parse(entry.payload.toString("utf8")) : deserialize(entry.payload);
    if (typeof data !== "object" || data === null || !("category" in data) || !("config" in data)) return undefined;
    return { category: data.category, config: data.config };
  } catch {
    return undefined;
  }
}

/**
 * Writes the entry for `key` atomically (replacing the project's previous one). Returns whether
 * it was written: a project whose folder cannot be written (read-only, full disk) simply has no
 * cache, and a value v8.serialize cannot hold is not cached.
 */
export async function writeParsedCache(paths: ProjectPaths, key: ParsedCacheKey, data: ParsedData): Promise<boolean> {
  try {
    const value = { category: data.category, config: data.config };
    const encoding = isExactJson(value) ? "json" : "v8";
    const payload = encoding === "json" ? Buffer.from(JSON.stringify(value), "utf8") : serialize(value);
    const header: EntryHeader = {
      format: PARSED_CACHE_FORMAT,
      version: PARSED_CACHE_VERSION,
      parser: YAML_PARSER,
      schemaLibrary: SCHEMA_LIBRARY,
      key,
      encoding,
    };
    return await writeSignedEntry(paths, parsedCacheFile(paths), { ...header }, payload);
  } catch {
    return false;
  }
}
