/**
 * What changed in each changed document since its review, as a unified diff (jsdiff's
 * createTwoFilesPatch, 3 lines of context) between the reviewed text (a snapshot, snapshots.ts)
 * and the text now. A document reviewed under several hashes (its links were reviewed at
 * different times) gets one diff per reviewed hash.
 */
import { createTwoFilesPatch } from "diff";
import type { CatDocProject } from "../project.js";
import { currentDocumentHashes } from "./document-hashes.js";
import { readSnapshot } from "./snapshots.js";
import type { ChangeImpact } from "./suspect.js";

export interface DocumentTextDiff {
  objectId: string;
  reviewed: string;
  current: string;
  /** The unified diff; null when the reviewed text is not kept (reviewed before snapshots, or the snapshot is gone or damaged). */
  patch: string | null;
}

/** Files are compared as text; a document that is not UTF-8 shows as changed bytes. */
function asText(bytes: Buffer): string {
  return bytes.toString("utf8");
}

export async function documentTextDiffs(project: CatDocProject, impact: ChangeImpact): Promise<DocumentTextDiff[]> {
  if (impact.changedDocuments.length === 0) return [];
  const ids = new Set(impact.changedDocuments.map((document) => document.objectId));
  const now = await currentDocumentHashes(project, ids, { withText: true });
  const diffs: DocumentTextDiff[] = [];
  for (const document of impact.changedDocuments) {
    const current = now.get(document.objectId);
    const label = document.path ?? `${document.objectId} (in category.yaml)`;
    for (const reviewed of document.reviewed) {
      const before = await readSnapshot(project.paths, reviewed);
      const patch =
        before === undefined || current?.text === undefined
          ? null
          : createTwoFilesPatch(label, label, asText(before), asText(current.text), `reviewed ${reviewed}`, `now ${current.hash}`, {
              context: 3,
            });
      diffs.push({ objectId: document.objectId, reviewed, current: current?.hash ?? document.current, patch });
    }
  }
  return diffs;
}
