/**
 * Failures as reproducible cases: one JSON file per distinct failure under tests/fuzz/regressions/
 * (server, tool, arguments — huge and deep values as `{"$fuzz": …}` recipes —, the seed and index
 * that generated them, the era of the connection, what failed). The replay test calls each saved
 * case again, in each era, and expects it to pass, so a failure the fuzz finds stays fixed.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CaseMode } from "./case-generator.js";
import type { Failure } from "./checks.js";
import type { Era } from "./era.js";
import { reviveBig } from "./wire-value.js";

export const REGRESSIONS_DIR = fileURLToPath(new URL("../regressions/", import.meta.url));

export interface RegressionCase {
  server: string;
  tool: string;
  arguments: unknown;
  seed: number;
  index: number;
  mode: CaseMode;
  /** The protocol era of the connection that found it (cases saved before eras were fuzzed: legacy). */
  era?: Era;
  failures: Failure[];
  /** When the fuzz found it (ISO time). */
  found: string;
  /** What was wrong and how it was fixed (written by the person who fixed it). */
  note?: string;
}

/**
 * One file per server, tool and kinds of failure with the same message shape (digits masked): the
 * same failure found in both eras is one case (the replay sends every case in both).
 */
function caseKey(entry: RegressionCase): string {
  const shape = entry.failures.map((f) => `${f.kind}:${f.detail.replace(/\d+/g, "#").slice(0, 120)}`).join("|");
  return createHash("sha256").update(`${entry.server}|${entry.tool}|${shape}`).digest("hex").slice(0, 10);
}

/** Writes the case unless one of the same shape is saved; returns its path, or undefined. */
export async function saveRegression(entry: RegressionCase, dir = REGRESSIONS_DIR): Promise<string | undefined> {
  await mkdir(dir, { recursive: true });
  const kinds = [...new Set(entry.failures.map((f) => f.kind))].join("+");
  const path = join(dir, `${entry.server}--${entry.tool}--${kinds}--${caseKey(entry)}.json`);
  if (existsSync(path)) return undefined;
  await writeFile(path, `${JSON.stringify(entry, null, 2)}\n`);
  return path;
}

/** Every saved case, with its file name. */
export async function loadRegressions(dir = REGRESSIONS_DIR): Promise<{ file: string; entry: RegressionCase }[]> {
  if (!existsSync(dir)) return [];
  const files = (await readdir(dir)).filter((name) => name.endsWith(".json")).sort();
  const out: { file: string; entry: RegressionCase }[] = [];
  for (const file of files) out.push({ file, entry: JSON.parse(await readFile(join(dir, file), "utf8"), reviveBig) as RegressionCase });
  return out;
}
