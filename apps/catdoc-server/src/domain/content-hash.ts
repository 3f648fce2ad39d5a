/**
 * The content hash of a document: `sha256:` and the first 16 hex digits of the SHA-256 of its
 * bytes. `catdoc import` records it as `metadata.contentHash`; reviews record it for the documents
 * at a link's ends (change-impact/document-hashes.ts).
 */
import { hash } from "node:crypto";

export function documentHash(bytes: Buffer | string): string {
  // crypto.hash (Node 20.12+): one call, no Hash object — about 5× faster on short texts.
  return `sha256:${hash("sha256", bytes, "hex").slice(0, 16)}`;
}
