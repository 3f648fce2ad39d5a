/**
 * A project from its files' texts as read, through the parsed-model cache (./parsed-cache.ts):
 * when the cache holds the models of exactly these contents, made by these schemas, the project is
 * built from them; otherwise the texts are parsed with positions (./yaml-positions.ts, loaded only
 * then) and checked by the schemas, and, when both files pass, their models are cached for the
 * next process. A failure is always reported from a fresh parse, so its line and column are those
 * of the file as it is: the cache only ever holds models the schemas made.
 */
import { CatDocModelSchema } from "./model.js";
import type { CatDocModel } from "./model.js";
import { MIN_CACHED_BYTES, SCHEMA_LIBRARY, readParsedCache, writeParsedCache } from "./parsed-cache.js";
import type { ParsedCacheKey } from "./parsed-cache.js";
import type { ProjectPaths } from "./paths.js";
import { ProjectConfigSchema } from "./project-config.js";
import type { ProjectConfig } from "./project-config.js";
import { CATEGORY_FILE_LABEL, CONFIG_FILE_LABEL, contentVersion } from "./project-files.js";
import { CatDocProject } from "./project.js";
import { schemaFingerprint } from "./schema-fingerprint.js";

let fingerprint: string | undefined;
/** The fingerprint of the two schemas (computed once a process: about a millisecond). */
function schemasFingerprint(): string {
  fingerprint ??= schemaFingerprint([CatDocModelSchema, ProjectConfigSchema], SCHEMA_LIBRARY);
  return fingerprint;
}

export interface ProjectParseOptions {
  /** Use and fill the parsed-YAML cache (default true). */
  cache?: boolean;
  /** category.yaml shorter than this (characters) is parsed without the cache (default MIN_CACHED_BYTES). */
  minCachedLength?: number;
}

/** Where a project's model came from: the cache, or a parse of the YAML. */
export type ParsedFrom = "cache" | "yaml";

export interface ParsedProject {
  project: CatDocProject;
  parsedFrom: ParsedFrom;
}

/** The project of category.yaml's `text` (whose bytes have sha256 `version`) and config.yaml's text (null: none). */
export async function parseProjectTexts(
  paths: ProjectPaths,
  text: string,
  version: string,
  configText: string | null,
  options: ProjectParseOptions = {},
): Promise<ParsedProject> {
  const cached = options.cache !== false && text.length >= (options.minCachedLength ?? MIN_CACHED_BYTES);
  const key: ParsedCacheKey = {
    category: version,
    config: configText === null ? null : contentVersion(configText),
    schemas: cached ? schemasFingerprint() : "",
  };
  if (cached) {
    const data = await readParsedCache(paths, key);
    // What these schemas made of exactly these contents (the key says so): the models as they were.
    if (data !== undefined) {
      const project = new CatDocProject(paths, data.category as CatDocModel, data.config as ProjectConfig, version);
      return { project, parsedFrom: "cache" };
    }
  }
  const { checkYamlData, parseYamlData } = await import("./yaml-positions.js");
  const category = parseYamlData(text, CATEGORY_FILE_LABEL);
  const model = checkYamlData(category, CATEGORY_FILE_LABEL, CatDocModelSchema);
  // No config.yaml reads as an empty one (every setting at its default).
  const configParsed = parseYamlData(configText ?? "", CONFIG_FILE_LABEL);
  const config = checkYamlData(configParsed, CONFIG_FILE_LABEL, ProjectConfigSchema);
  if (cached) await writeParsedCache(paths, key, { category: model, config });
  return { project: new CatDocProject(paths, model, config, version), parsedFrom: "yaml" };
}
