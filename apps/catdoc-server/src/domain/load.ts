/**
 * Reading a project from disk: `.catdoc/category.yaml` (required) and `.catdoc/config.yaml`
 * (optional). Malformed YAML or a wrong shape raises CatDocParseError naming file, line and
 * column; a missing category.yaml raises ProjectNotInitializedError. The root is a parameter:
 * the app's config module decides it (CATDOC_PROJECT_PATH or the working directory).
 */
import { CatDocModelSchema } from "./model.js";
import type { CatDocModel } from "./model.js";
import { projectPaths } from "./paths.js";
import type { ProjectPaths } from "./paths.js";
import { CATEGORY_FILE_LABEL, CONFIG_FILE_LABEL, readCategoryText, readConfigText } from "./project-files.js";
import { ProjectConfigSchema } from "./project-config.js";
import type { ProjectConfig } from "./project-config.js";
import { CatDocProject } from "./project.js";
import { parseYamlWithSchema } from "./yaml-positions.js";

export { CATEGORY_FILE_LABEL, CONFIG_FILE_LABEL, contentVersion, readCategoryText, readConfigText } from "./project-files.js";

export function parseCategoryYaml(text: string, file: string = CATEGORY_FILE_LABEL): CatDocModel {
  return parseYamlWithSchema(text, file, CatDocModelSchema);
}

export function parseProjectConfig(text: string, file: string = CONFIG_FILE_LABEL): ProjectConfig {
  return parseYamlWithSchema(text, file, ProjectConfigSchema);
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
