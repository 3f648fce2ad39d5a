/**
 * `git diff -M --unified=N` parsed into files and hunks, keeping the new side's line numbers: what
 * the review chore anchors its notes to (a note's file and line must be an added or context line
 * of a hunk), and what the prompt shows the model, each new-side line numbered.
 */

export interface DiffLine {
  kind: "added" | "context" | "removed";
  /** The line on the new side (added, context); undefined for removed lines. */
  line?: number;
  text: string;
}

export interface DiffFile {
  /** The new path (the old one for a deletion). */
  path: string;
  from?: string;
  deleted?: boolean;
  binary?: boolean;
  hunks: { header: string; lines: DiffLine[] }[];
}

/** Unquotes a path git wrote in C-style quotes (only names with control characters, since core.quotepath=false). */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  return path.slice(1, -1).replace(/\\(["\\tn])/g, (_m, c: string) => (c === "t" ? "\t" : c === "n" ? "\n" : c));
}

const stripPrefix = (path: string, prefix: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : path);
/** The path of a `--- a/x` / `+++ b/x` line: git ends a name with spaces with a tab there. */
const sidePath = (line: string, prefix: string) => stripPrefix(unquote(line.slice(4).replace(/\t$/, "")), prefix);

export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let hunk: DiffFile["hunks"][number] | undefined;
  let newLine = 0;
  for (const raw of text.split("\n")) {
    if (raw.startsWith("diff --git ")) {
      file = { path: "", hunks: [] };
      files.push(file);
      hunk = undefined;
      // Until ---/+++ say otherwise: the b/ side of the header (exact when both names are equal).
      const names = /^diff --git (?:"?a\/)(.*?)"? (?:"?b\/)(.*?)"?$/.exec(raw);
      if (names) file.path = names[2] ?? "";
      continue;
    }
    if (!file) continue;
    if (hunk === undefined) {
      if (raw.startsWith("rename from ")) file.from = raw.slice("rename from ".length);
      else if (raw.startsWith("rename to ")) file.path = raw.slice("rename to ".length);
      else if (raw.startsWith("deleted file mode")) file.deleted = true;
      else if (raw.startsWith("Binary files ") || raw === "GIT binary patch") file.binary = true;
      else if (raw.startsWith("--- ") && file.deleted) file.path = sidePath(raw, "a/");
      else if (raw.startsWith("+++ ") && raw !== "+++ /dev/null") file.path = sidePath(raw, "b/");
    }
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
    if (header) {
      hunk = { header: raw, lines: [] };
      file.hunks.push(hunk);
      newLine = Number(header[1]);
      continue;
    }
    if (!hunk) continue;
    const mark = raw[0];
    if (mark === "+") hunk.lines.push({ kind: "added", line: newLine++, text: raw.slice(1) });
    else if (mark === " ") hunk.lines.push({ kind: "context", line: newLine++, text: raw.slice(1) });
    else if (mark === "-") hunk.lines.push({ kind: "removed", text: raw.slice(1) });
    // "\ No newline at end of file" and the empty piece after the last newline: nothing.
  }
  return files;
}

/** The new-side lines of each file a note may anchor to: file → line → text. */
export function newSideLines(files: readonly DiffFile[]): Map<string, Map<number, string>> {
  const map = new Map<string, Map<number, string>>();
  for (const file of files) {
    const lines = map.get(file.path) ?? new Map<number, string>();
    for (const hunk of file.hunks) for (const l of hunk.lines) if (l.line !== undefined) lines.set(l.line, l.text);
    map.set(file.path, lines);
  }
  return map;
}

/**
 * The diff as the model reads it: per file a `### path` heading, then each hunk's lines with the
 * new side's line number (`  12 + added`, `  13   context`, `     - removed`).
 */
export function numberedDiff(files: readonly DiffFile[]): string {
  const out: string[] = [];
  for (const file of files) {
    const what = file.deleted ? " (deleted)" : file.from ? ` (renamed from ${file.from})` : file.binary ? " (binary)" : "";
    out.push(`### ${file.path}${what}`);
    for (const hunk of file.hunks) {
      out.push(hunk.header);
      for (const l of hunk.lines) {
        const number = l.line === undefined ? "" : String(l.line);
        out.push(`${number.padStart(5)} ${l.kind === "added" ? "+" : l.kind === "removed" ? "-" : " "} ${l.text}`);
      }
    }
  }
  return out.join("\n");
}
