import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ALWAYS_EXCLUDED_DIRECTORIES, IgnoreRules, isIgnored } from "./ignore-rules.js";
import { languageOf, type Language } from "./languages.js";

export interface SourceFile {
  /** Relative to the repository root, `/`-separated. */
  path: string;
  language: Language;
  size: number;
}

export interface WalkResult {
  /** Code files in a language the indexer reads, sorted by path (code-point order). */
  files: SourceFile[];
  /** Code files left out because they are larger than `maxFileBytes` or look minified. */
  skippedLarge: string[];
}

export interface WalkOptions {
  /** Files larger than this are left out (generated bundles, fixtures); default 512 KiB. */
  maxFileBytes?: number;
}

const DEFAULT_MAX_FILE_BYTES = 512 * 1024;
const EXCLUDED = new Set(ALWAYS_EXCLUDED_DIRECTORIES);

/**
 * Lists the code files of a repository, deterministically: directories are read in sorted order,
 * hidden directories (`.git`, `.github`, …) and ALWAYS_EXCLUDED_DIRECTORIES are never entered,
 * every `.gitignore` on the way applies to the paths below it, symbolic links are not followed,
 * and minified files (`*.min.js`) and files above `maxFileBytes` are skipped.
 */
export function walkRepository(root: string, options: WalkOptions = {}): WalkResult {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const files: SourceFile[] = [];
  const skippedLarge: string[] = [];

  const visit = (relativeDir: string, chain: readonly IgnoreRules[]) => {
    const absolute = relativeDir === "" ? root : join(root, relativeDir);
    const entries = readdirSync(absolute, { withFileTypes: true });
    const here = entries.some((e) => e.isFile() && e.name === ".gitignore")
      ? [...chain, IgnoreRules.parse(readFileSync(join(absolute, ".gitignore"), "utf8"), relativeDir)]
      : chain;
    const names = entries.map((e) => e.name).sort(compareCodePoints);
    const byName = new Map(entries.map((e) => [e.name, e]));
    for (const name of names) {
      const entry = byName.get(name);
      if (!entry || entry.isSymbolicLink()) continue;
      const path = relativeDir === "" ? name : `${relativeDir}/${name}`;
      if (entry.isDirectory()) {
        if (name.startsWith(".") || EXCLUDED.has(name) || isIgnored(here, path, true)) continue;
        visit(path, here);
      } else if (entry.isFile()) {
        const language = languageOf(name);
        if (!language || /\.min\.[cm]?js$/.test(name) || isIgnored(here, path, false)) continue;
        const size = statSync(join(root, path)).size;
        if (size > maxBytes) skippedLarge.push(path);
        else files.push({ path, language, size });
      }
    }
  };
  visit("", []);
  files.sort((a, b) => compareCodePoints(a.path, b.path));
  skippedLarge.sort(compareCodePoints);
  return { files, skippedLarge };
}

/** Sort order that does not depend on the locale. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
