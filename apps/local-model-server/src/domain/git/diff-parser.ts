/**
 * `git diff --numstat -z -M` parsed: `added TAB removed TAB path NUL` per file, or for a rename
 * `added TAB removed TAB NUL from NUL to NUL`; binary files show `-` for both counts.
 */
export interface DiffChange {
  file: string;
  added: number;
  removed: number;
  from?: string;
  binary?: boolean;
}

export interface DiffSummary {
  files_changed: number;
  insertions: number;
  deletions: number;
  changes: DiffChange[];
}

export function parseNumstat(output: string): DiffSummary {
  const tokens = output.split("\0");
  const changes: DiffChange[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const record = tokens[i] ?? "";
    if (record.length === 0) continue;
    const [addedText = "", removedText = "", path = ""] = record.split("\t");
    const binary = addedText === "-" && removedText === "-";
    const change: DiffChange = { file: path, added: binary ? 0 : Number(addedText), removed: binary ? 0 : Number(removedText) };
    if (path === "") {
      change.from = tokens[++i] ?? "";
      change.file = tokens[++i] ?? "";
    }
    if (binary) change.binary = true;
    changes.push(change);
  }
  return {
    files_changed: changes.length,
    insertions: changes.reduce((sum, c) => sum + c.added, 0),
    deletions: changes.reduce((sum, c) => sum + c.removed, 0),
    changes,
  };
}
