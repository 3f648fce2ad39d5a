/**
 * A project from its files' texts as read, through the parsed-YAML cache (./parsed-cache.ts):
 * when the cache holds the data of exactly these contents, only the schemas run on it; otherwise
 * the texts are parsed with positions (./yaml-positions.ts, loaded only then) and, when both
 * files pass their schemas, the data is cached for the next process. A failure is always reported
 * from a fresh parse, so its line and column are those of the file as it is: the cache only ever
 * holds data the schemas accepted, and data from the cache that the schemas refuse (a newer
 * schema) is parsed again.
 */
import { CatDocModelSchema } from "./model.js";
import { MIN_CACHED_BYTES, readParsedCache, writeParsedCache } from "./parsed-cache.js";
import type { ParsedCacheKey } from "./parsed-cache.js";
import type { ProjectPaths } from "./paths.js";
import { ProjectConfigSchema } from "./project-config.js";
import { CATEGORY_FILE_LABEL, CONFIG_FILE_LABEL, contentVersion } from "./project-files.js";
import { CatDocProject } from "./project.js";

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
  const key: ParsedCacheKey = { category: version, config: configText === null ? null : contentVersion(configText) };
  if (cached) {
    const data = await readParsedCache(paths, key);
    if (data !== undefined) {
      const model = CatDocModelSchema.safeParse(data.category);
      const config = ProjectConfigSchema.safeParse(data.config);
      if (model.success && config.success) {
        return { project: new CatDocProject(paths, model.data, config.data, version), parsedFrom: "cache" };
      }
    }
  }
  const { checkYamlData, parseYamlData } = await import("./yaml-positions.js");
  const category = parseYamlData(text, CATEGORY_FILE_LABEL);
  const model = checkYamlData(category, CATEGORY_FILE_LABEL, CatDocModelSchema);
  // No config.yaml reads as an empty one (every setting at its default).
  const configParsed = parseYamlData(configText ?? "", CONFIG_FILE_LABEL);
  const config = checkYamlData(configParsed, CONFIG_FILE_LABEL, ProjectConfigSchema);
  if (cached) await writeParsedCache(paths, key, { category: category.data, config: configParsed.data });
  return { project: new CatDocProject(paths, model, config, version), parsedFrom: "yaml" };
}
