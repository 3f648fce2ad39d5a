/**
 * Reading a project from disk: `.catdoc/category.yaml` (required) and `.catdoc/config.yaml`
 * (optional). Malformed YAML or a wrong shape raises CatDocParseError naming file, line and
 * column; a missing category.yaml raises ProjectNotInitializedError. The root is a parameter:
 * the app's config module decides it (CATDOC_PROJECT_PATH or the working directory).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { ProjectNotInitializedError } from "./errors.js";
import { CatDocModelSchema } from "./model.js";
import type { CatDocModel } from "./model.js";
import { projectPaths } from "./paths.js";
import type { ProjectPaths } from "./paths.js";
import { ProjectConfigSchema } from "./project-config.js";
import type { ProjectConfig } from "./project-config.js";
import { CatDocProject } from "./project.js";
import { parseYamlWithSchema } from "./yaml-positions.js";

export const CATEGORY_FILE_LABEL = ".catdoc/category.yaml";
export const CONFIG_FILE_LABEL = ".catdoc/config.yaml";

export function parseCategoryYaml(text: string, file: string = CATEGORY_FILE_LABEL): CatDocModel {
  return parseYamlWithSchema(text, file, CatDocModelSchema);
}

export function parseProjectConfig(text: string, file: string = CONFIG_FILE_LABEL): ProjectConfig {
  return parseYamlWithSchema(text, file, ProjectConfigSchema);
}

/** The version of a file's content: sha256 in hex. */
export function contentVersion(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR");
}

/** category.yaml's text and version; ProjectNotInitializedError when it does not exist. */
export async function readCategoryText(paths: ProjectPaths): Promise<{ text: string; version: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(paths.categoryFile);
  } catch (error) {
    if (isMissing(error)) throw new ProjectNotInitializedError(paths.root);
    throw error;
  }
  return { text: bytes.toString("utf8"), version: contentVersion(bytes) };
}

/** config.yaml's text, or null when the project has none. */
export async function readConfigText(paths: ProjectPaths): Promise<string | null> {
  try {
    return await readFile(paths.configFile, "utf8");
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** Builds a project from texts already read (the store uses it to avoid reading twice). */
export function projectFromText(paths: ProjectPaths, categoryText: string, version: string, configText: string | null): CatDocProject {
  const model = parseCategoryYaml(categoryText);
  const config = configText === null ? parseProjectConfig("") : parseProjectConfig(configText);
  return new CatDocProject(paths, model, config, version);
}

/** Reads and checks a project. */
export async function loadProject(root: string): Promise<CatDocProject> {
  const paths = projectPaths(root);
  const { text, version } = await readCategoryText(paths);
  return projectFromText(paths, text, version, await readConfigText(paths));
}
