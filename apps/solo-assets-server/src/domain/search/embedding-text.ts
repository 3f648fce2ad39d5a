/**
 * The text embedded for a function (issue #6: name, description, signature and docstring). The
 * name is also split into words ("parse_iso_date" → "parse iso date") so it reads like the
 * queries agents write. Its hash tells `reindex` whether a stored vector is current.
 */
import { createHash } from "node:crypto";

export interface EmbeddableFunction {
  name: string;
  description: string;
  signature: string;
  docstring: string;
  tags: readonly string[];
}

export function splitIdentifier(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();
}

export function embeddingText(fn: EmbeddableFunction): string {
  return [
    `${fn.name} (${splitIdentifier(fn.name)})`,
    fn.description,
    fn.signature,
    fn.docstring,
    fn.tags.length > 0 ? `tags: ${fn.tags.join(", ")}` : "",
  ]
    .filter((part) => part.trim().length > 0)
    .join("\n");
}

export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}
