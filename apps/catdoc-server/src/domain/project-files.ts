/**
 * Reading a project's two files as they are on disk — `.catdoc/category.yaml` (its text and the
 * sha256 of its bytes) and `.catdoc/config.yaml` — without parsing them (./load.ts and
 * ./project-parse.ts parse). Kept apart from the parser so that a process that finds the parsed
 * data in the cache (./parsed-cache.ts) never loads it.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { ProjectNotInitializedError } from "./errors.js";
import type { ProjectPaths } from "./paths.js";

export const CATEGORY_FILE_LABEL = ".catdoc/category.yaml";
export const CONFIG_FILE_LABEL = ".catdoc/config.yaml";

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
