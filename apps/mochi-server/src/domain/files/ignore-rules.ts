/**
 * `.gitignore`-style exclusions. Supported: blank lines and `#` comments, `!` negation, a trailing
 * `/` (directories only), a leading or inner `/` (anchored to the `.gitignore`'s directory), `*`,
 * `?`, `[...]` and `**`. The last matching rule wins, as in git. A directory that is excluded is
 * never entered, so a negation cannot bring back a file inside it (also as in git).
 */
interface IgnoreRule {
  negated: boolean;
  directoryOnly: boolean;
  regex: RegExp;
}

/** Directories no index wants: dependencies, VCS data, build outputs, caches, Mochi's own output. */
export const ALWAYS_EXCLUDED_DIRECTORIES: readonly string[] = [
  ".git",
  ".hg",
  ".svn",
  ".mochi",
  "node_modules",
  "bower_components",
  "dist",
  "build",
  "out",
  "coverage",
  "target",
  "vendor",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  "test-results",
];

export class IgnoreRules {
  private constructor(
    /** Path of the `.gitignore`'s directory relative to the repository root ("" for the root). */
    readonly base: string,
    private readonly rules: readonly IgnoreRule[],
  ) {}

  static parse(text: string, base = ""): IgnoreRules {
    const rules: IgnoreRule[] = [];
    for (const raw of text.split(/\r?\n/)) {
      let line = raw.replace(/(?<!\\)\s+$/, "");
      if (line === "" || line.startsWith("#")) continue;
      const negated = line.startsWith("!");
      if (negated) line = line.slice(1);
      if (line.startsWith("\\")) line = line.slice(1);
      const directoryOnly = line.endsWith("/");
      if (directoryOnly) line = line.slice(0, -1);
      if (line === "") continue;
      const anchored = line.includes("/");
      if (line.startsWith("/")) line = line.slice(1);
      const body = globToRegex(line);
      rules.push({ negated, directoryOnly, regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`) });
    }
    return new IgnoreRules(base, rules);
  }

  /**
   * Whether `path` (relative to the repository root, `/`-separated) is ignored by these rules:
   * true, false, or undefined when no rule matches.
   */
  decide(path: string, isDirectory: boolean): boolean | undefined {
    const prefix = this.base === "" ? "" : `${this.base}/`;
    if (prefix !== "" && !path.startsWith(prefix)) return undefined;
    const relative = path.slice(prefix.length);
    let decision: boolean | undefined;
    for (const rule of this.rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.regex.test(relative)) decision = !rule.negated;
    }
    return decision;
  }
}

/** Decides with every `.gitignore` from the root down to the path's directory; deeper files win. */
export function isIgnored(chain: readonly IgnoreRules[], path: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const rules of chain) {
    const decision = rules.decide(path, isDirectory);
    if (decision !== undefined) ignored = decision;
  }
  return ignored;
}

function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (atStart && atEnd) {
          // "**/" any leading directories; "/**" everything inside; "a/**/b" zero or more directories
          if (i + 2 === glob.length) out += ".*";
          else {
            out += "(?:.*/)?";
            i += 1; // skip the "/" after "**"
          }
          i += 1;
          continue;
        }
      }
      out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) out += "\\[";
      else {
        const set = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        out += `[${set}]`;
        i = end;
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1] as string);
      i += 1;
    } else out += escapeRegex(c);
  }
  return out;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
