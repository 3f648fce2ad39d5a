/**
 * Review snapshots: the text of each document as it was when a link at it was reviewed, so that
 * `catdoc diff` can show what changed, line by line. Kept in `.catdoc/reviewed/`, one file per
 * content hash (`<16 hex digits>.txt`, the digits of content-hash.ts's `sha256:` value): a review
 * writes the texts it stamped, each once; nothing else writes there. Commit the folder with
 * category.yaml so that the whole team sees the diffs (a project without it still works: the diff
 * says the reviewed text is not kept).
 *
 * The folder is project content, so hostile: a snapshot is used only when its bytes hash to the
 * name it is stored under (a planted or damaged file is ignored, never shown as the reviewed
 * text), it is read and written only inside the project root (paths.ts), and a name that is not
 * a hash is never formed from input.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "@local-mcp/core/files";
import { documentHash } from "../content-hash.js";
import { MAX_DOCUMENT_BYTES } from "../document-path.js";
import { readInsideRoot, resolveInsideRoot } from "../paths.js";
import type { ProjectPaths } from "../paths.js";
import type { DocumentHash } from "./document-hashes.js";

/** Root-relative folder of the snapshots. */
export const SNAPSHOT_FOLDER = ".catdoc/reviewed";

const HASH = /^sha256:([0-9a-f]{16})$/;

function snapshotName(hash: string): string | undefined {
  const digits = HASH.exec(hash)?.[1];
  return digits === undefined ? undefined : `${SNAPSHOT_FOLDER}/${digits}.txt`;
}

/**
 * Keeps the text of each document hash (those read with `withText`) that has no snapshot yet.
 * Returns how many were written. A snapshot that cannot be written (a read-only folder, a path
 * that leaves the project) is skipped: the review itself stands, its diff will say the text is
 * not kept.
 */
export async function saveSnapshots(paths: ProjectPaths, documents: Iterable<DocumentHash>): Promise<number> {
  const pending = new Map<string, Buffer>();
  for (const document of documents) {
    const name = snapshotName(document.hash);
    if (name !== undefined && document.text !== undefined && !pending.has(name)) pending.set(name, document.text);
  }
  if (pending.size === 0) return 0;
  let written = 0;
  try {
    await mkdir(await resolveInsideRoot(paths.root, SNAPSHOT_FOLDER), { recursive: true });
  } catch {
    return 0;
  }
  for (const [name, text] of pending) {
    try {
      const file = await resolveInsideRoot(paths.root, name);
      if ((await readSnapshotFile(paths, name)) !== undefined) continue;
      await writeFileAtomic(file, text);
      written += 1;
    } catch {
      // Not kept: the diff of this document will say so.
    }
  }
  return written;
}

async function readSnapshotFile(paths: ProjectPaths, name: string): Promise<Buffer | undefined> {
  try {
    const bytes = await readInsideRoot(paths.root, join(paths.root, name), { userPath: name, maxBytes: MAX_DOCUMENT_BYTES });
    return `sha256:${name.slice(SNAPSHOT_FOLDER.length + 1, -4)}` === documentHash(bytes) ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** The reviewed text whose hash is `hash`, when a snapshot of it is kept and intact. */
export async function readSnapshot(paths: ProjectPaths, hash: string): Promise<Buffer | undefined> {
  const name = snapshotName(hash);
  return name === undefined ? undefined : readSnapshotFile(paths, name);
}
