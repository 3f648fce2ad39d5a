/**
 * Where an object's document file is named, and the most a document may weigh: a leaf module, so
 * code that only reads and hashes documents (change impact, run by every `catdoc validate`) does
 * not load the Markdown and frontmatter parsing of documents.ts.
 */
import type { CatDocObject } from "./model.js";

/** The metadata keys that name an object's document file, in order of precedence. */
export const DOCUMENT_PATH_KEYS = ["path", "filePath", "file", "document", "documentPath"] as const;
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** The metadata path an object points to, if any. */
export function documentPathOf(object: CatDocObject): string | undefined {
  for (const key of DOCUMENT_PATH_KEYS) {
    const value = object.metadata?.[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}
