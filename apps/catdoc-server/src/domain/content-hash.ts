/**
 * The content hash of a document: `sha256:` and the first 16 hex digits of the SHA-256 of its
 * bytes. `catdoc import` records it as `metadata.contentHash`; reviews record it for the documents
 * at a link's ends (change-impact/document-hashes.ts).
 */
import { createHash } from "node:crypto";

export function documentHash(bytes: Buffer | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}`;
}
