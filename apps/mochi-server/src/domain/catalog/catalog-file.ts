import { mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { stableStringify, ToolError, writeFileAtomicSync } from "@local-mcp/core";
import { CatalogSchema, type Catalog } from "./catalog-schema.js";

/** The catalog file's bytes: sorted-key JSON and a final newline. */
export function serializeCatalog(catalog: Catalog): string {
  return `${stableStringify(catalog)}\n`;
}

/**
 * Writes the catalog atomically with core's writeFileAtomicSync (a temporary file, fsynced and
 * renamed over the old one), so a reader never sees half a file; a temporary file a killed
 * write left behind is removed by the next write.
 */
export function writeCatalogFile(path: string, catalog: Catalog): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, serializeCatalog(catalog));
}

/** Reads and validates a catalog file; NOT_READY says what is wrong and how to fix it. */
export function readCatalogFile(path: string): Catalog {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new ToolError(
      "NOT_READY",
      missing ? `No Mochi catalog at ${path}.` : `The Mochi catalog at ${path} cannot be read: ${(error as Error).message}`,
      {
        suggestion: "Run `mochi index <repo>` (it writes <repo>/.mochi/catalog.json) or point MOCHI_CATALOG at a catalog file.",
        details: { catalog: path },
      },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ToolError("NOT_READY", `The Mochi catalog at ${path} is not JSON: ${(error as Error).message}`, {
      recoverable: false,
      suggestion: "Re-create it with `mochi index <repo>`.",
    });
  }
  const result = CatalogSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ToolError(
      "NOT_READY",
      `The file at ${path} is not a Mochi catalog (${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}).`,
      {
        recoverable: false,
        suggestion: "Re-create it with `mochi index <repo>` (catalogs from other versions are not read).",
      },
    );
  }
  return result.data;
}

/** What identifies one state of the file on disk. */
export function fileStamp(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}
