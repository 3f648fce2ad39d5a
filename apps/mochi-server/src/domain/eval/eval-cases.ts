import { seedFrom, seededRandom } from "@local-mcp/core";
import type { ScannedFile } from "../catalog/scan-repository.js";
import type { CompletionScope } from "../model/completion-scope.js";

/** next-line: the code before a line, the line expected; fim: the code around a span of 1–3 lines, the span expected. */
export type EvalCaseKind = "next-line" | "fim";

export interface EvalCase {
  kind: EvalCaseKind;
  /** The file's path in the repository. */
  path: string;
  /** 1-based line the expected text starts on. */
  line: number;
  /** The file's language (`typescript`, `python`…), as an editor names it to complete_code. */
  language: string;
  prefix: string;
  suffix: string;
  expected: string;
  /** The completion scope the case is run with: a line for next-line, a block for fim. */
  scope: CompletionScope;
}

export interface EvalCaseOptions {
  seed: number;
  /** At most this many cases, chosen by the seed across all files (default all). */
  limit?: number | undefined;
}

/** Chunks (declarations) of this many lines make cases, as they make the dataset's samples (code-samples.ts). */
const MIN_CHUNK_LINES = 3;
const MAX_CHUNK_LINES = 200;

/**
 * Completion cases from held-out files, deterministic for a seed: for every chunk of 3–200 lines
 * (a top-level declaration or a long class's method, as `mochi dataset` splits code), one
 * next-line case — the file up to the start of a non-blank line of the chunk after its first,
 * that line expected, no suffix — and one fill-in-the-middle case — a span of 1–3 inner lines of
 * the chunk with at least one non-blank line, the file before it as prefix, the file after it as
 * suffix. With `limit`, a seeded shuffle picks which cases are kept; cases come sorted by file and
 * line either way.
 */
export function buildEvalCases(files: readonly ScannedFile[], options: EvalCaseOptions): EvalCase[] {
  const cases: EvalCase[] = [];
  for (const file of files) {
    const lines = file.text.split("\n");
    for (const chunk of file.facts.chunks) {
      const size = chunk.endLine - chunk.startLine + 1;
      if (size < MIN_CHUNK_LINES || size > MAX_CHUNK_LINES) continue;
      const random = seededRandom(seedFrom(`${options.seed}:${file.path}:${chunk.symbol}:${chunk.startLine}`));
      const before = (line: number) => lines.slice(0, line - 1).join("\n") + (line > 1 ? "\n" : "");
      const nonBlank = (from: number, to: number) => range(from, to).filter((n) => (lines[n - 1] ?? "").trim() !== "");

      const nextLines = nonBlank(chunk.startLine + 1, chunk.endLine);
      const next = pick(nextLines, random);
      if (next !== undefined) {
        cases.push({
          kind: "next-line",
          path: file.path,
          line: next,
          language: file.language,
          prefix: before(next),
          suffix: "",
          expected: lines[next - 1] ?? "",
          scope: "line",
        });
      }

      const starts = nonBlank(chunk.startLine + 1, chunk.endLine - 1);
      const start = pick(starts, random);
      if (start !== undefined) {
        const length = Math.min(1 + Math.floor(random() * 3), chunk.endLine - start);
        const end = start + length - 1;
        cases.push({
          kind: "fim",
          path: file.path,
          line: start,
          language: file.language,
          prefix: before(start),
          suffix: lines.slice(end).join("\n"),
          expected: lines.slice(start - 1, end).join("\n"),
          scope: "block",
        });
      }
    }
  }
  const chosen =
    options.limit === undefined || options.limit >= cases.length ? cases : shuffled(cases, options.seed).slice(0, options.limit);
  return chosen.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || (a.kind < b.kind ? -1 : 1)));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

function pick<T>(items: readonly T[], random: () => number): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
}

/** Fisher–Yates with the seed's generator: the same seed keeps the same cases. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const random = seededRandom(seedFrom(`${seed}:cases`));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
