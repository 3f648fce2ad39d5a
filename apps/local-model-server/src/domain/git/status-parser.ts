/**
 * `git status --porcelain=v2 -z --branch` parsed into exact lists. Porcelain v2 records:
 * `1 XY …8 fields… path` (changed), `2 XY …9 fields… path NUL origPath` (renamed/copied),
 * `u XY …10 fields… path` (unmerged), `? path`, `! path`, and `# branch.*` headers.
 */
export interface StatusEntry {
  path: string;
  /** Index (staged) status letter, `.` when unchanged. */
  index: string;
  /** Work-tree status letter, `.` when unchanged. */
  worktree: string;
  from?: string;
  kind: "changed" | "renamed" | "copied" | "unmerged" | "untracked" | "ignored";
}

export interface BranchInfo {
  head: string | undefined;
  oid: string | undefined;
  upstream: string | undefined;
  ahead: number | undefined;
  behind: number | undefined;
}

export interface GitStatus {
  branch: BranchInfo;
  /** Paths with a staged change (renames under their new path). */
  staged: string[];
  /** Paths modified in the work tree and not staged. */
  modified: string[];
  untracked: string[];
  renamed: { from: string; to: string }[];
  /** Paths deleted, staged or not. */
  deleted: string[];
  conflicted: string[];
  entries: StatusEntry[];
}

/** Splits `line` into `count` space-separated fields and the rest (a path may hold spaces). */
function fields(line: string, count: number): { parts: string[]; rest: string } {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const space = line.indexOf(" ", at);
    if (space < 0) return { parts, rest: "" };
    parts.push(line.slice(at, space));
    at = space + 1;
  }
  return { parts, rest: line.slice(at) };
}

export function parsePorcelainV2(output: string): GitStatus {
  const tokens = output.split("\0");
  const status: GitStatus = {
    branch: { head: undefined, oid: undefined, upstream: undefined, ahead: undefined, behind: undefined },
    staged: [],
    modified: [],
    untracked: [],
    renamed: [],
    deleted: [],
    conflicted: [],
    entries: [],
  };
  for (let i = 0; i < tokens.length; i++) {
    const record = tokens[i] ?? "";
    if (record.length === 0) continue;
    const type = record[0];
    if (type === "#") {
      const [key, ...value] = record.slice(2).split(" ");
      const text = value.join(" ");
      if (key === "branch.oid") status.branch.oid = text === "(initial)" ? undefined : text;
      else if (key === "branch.head") status.branch.head = text === "(detached)" ? undefined : text;
      else if (key === "branch.upstream") status.branch.upstream = text;
      else if (key === "branch.ab") {
        const match = /^\+(\d+) -(\d+)$/.exec(text);
        if (match) {
          status.branch.ahead = Number(match[1]);
          status.branch.behind = Number(match[2]);
        }
      }
      continue;
    }
    if (type === "?" || type === "!") {
      const path = record.slice(2);
      status.entries.push({ path, index: type, worktree: type, kind: type === "?" ? "untracked" : "ignored" });
      if (type === "?") status.untracked.push(path);
      continue;
    }
    if (type === "1" || type === "2") {
      const { parts, rest: path } = fields(record, type === "1" ? 8 : 9);
      const xy = parts[1] ?? "..";
      const entry: StatusEntry = { path, index: xy[0] ?? ".", worktree: xy[1] ?? ".", kind: "changed" };
      if (type === "2") {
        const from = tokens[++i] ?? "";
        entry.from = from;
        entry.kind = (parts[8] ?? "R").startsWith("C") ? "copied" : "renamed";
        if (entry.kind === "renamed") status.renamed.push({ from, to: path });
      }
      status.entries.push(entry);
      if (entry.index !== ".") status.staged.push(path);
      if (entry.index === "D" || entry.worktree === "D") status.deleted.push(path);
      if (entry.worktree === "M" || entry.worktree === "T") status.modified.push(path);
      continue;
    }
    if (type === "u") {
      const { parts, rest: path } = fields(record, 10);
      const xy = parts[1] ?? "UU";
      status.entries.push({ path, index: xy[0] ?? "U", worktree: xy[1] ?? "U", kind: "unmerged" });
      status.conflicted.push(path);
    }
  }
  return status;
}

/**
 * The entries as `git status --short` prints them (`XY path`, `XY from -> path`, `?? path`): the
 * most compact raw answer a caller could read instead. `tokens_saved` for status is measured
 * against it, not against the machine format the server parses.
 */
export function shortStatusText(entries: readonly StatusEntry[]): string {
  return entries
    .map((e) => {
      const code = e.kind === "untracked" ? "??" : e.kind === "ignored" ? "!!" : `${e.index}${e.worktree}`.replaceAll(".", " ");
      return `${code} ${e.from ? `${e.from} -> ` : ""}${e.path}\n`;
    })
    .join("");
}
