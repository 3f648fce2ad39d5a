/** Resource reads and listings on the project, with domain errors turned into ToolErrors. */
import { asToolError } from "../errors-to-tool.js";
import type { CatDocProject } from "../domain/index.js";
import type { ProjectAccess } from "../project-access.js";

/** Runs `read` on the current project; a CatDocError becomes a ToolError (core maps NOT_FOUND to -32002). */
export async function readProject<T>(access: ProjectAccess, read: (project: CatDocProject) => Promise<T> | T): Promise<T> {
  try {
    return await read(await access.load());
  } catch (error) {
    throw asToolError(error);
  }
}

/** Listing and completion answer nothing (rather than fail) while there is no project. */
export async function listFromProject<T>(access: ProjectAccess, list: (project: CatDocProject) => T[]): Promise<T[]> {
  if (!(await (await access.store()).isInitialized())) return [];
  return readProject(access, list);
}

/** Ids that start with `prefix` (case-insensitive), sorted. */
export function completeIds(ids: Iterable<string>, prefix: string): string[] {
  const lower = prefix.toLowerCase();
  return [...new Set(ids)].filter((id) => id.toLowerCase().startsWith(lower)).sort();
}
