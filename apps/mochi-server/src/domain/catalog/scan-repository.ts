import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeFile } from "../analysis/analyze-file.js";
import type { FileFacts } from "../analysis/source-facts.js";
import type { Language } from "../files/languages.js";
import { walkRepository } from "../files/repo-walker.js";

export interface ScannedFile {
  path: string;
  language: Language;
  /** The text with line endings normalised to `\n` and no BOM. */
  text: string;
  facts: FileFacts;
}

export interface RepositoryScan {
  files: ScannedFile[];
  /** Code files left out for their size. */
  skippedLarge: string[];
}

export interface ScanProgress {
  done: number;
  total: number;
  path: string;
}

export interface ScanOptions {
  onProgress?: (progress: ScanProgress) => void;
  maxFileBytes?: number;
}

/** Walks the repository (exclusions in repo-walker.ts) and analyses every code file, in path order. */
export async function scanRepository(root: string, options: ScanOptions = {}): Promise<RepositoryScan> {
  const walked = walkRepository(root, options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes });
  const files: ScannedFile[] = [];
  const total = walked.files.length;
  for (const [index, file] of walked.files.entries()) {
    const text = readFileSync(join(root, file.path), "utf8")
      .replace(/^\uFEFF/, "")
      .replace(/\r\n?/g, "\n");
    files.push({ path: file.path, language: file.language, text, facts: await analyzeFile(file.path, text, file.language) });
    options.onProgress?.({ done: index + 1, total, path: file.path });
  }
  return { files, skippedLarge: walked.skippedLarge };
}
