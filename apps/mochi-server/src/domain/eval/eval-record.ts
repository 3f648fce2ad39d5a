import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "@local-mcp/core/files";
import type { EvalCaseKind } from "./eval-cases.js";
import type { Lift, SubjectSummary } from "./eval-run.js";

/** What `mochi eval` measured, as it writes it to `.mochi/eval/last.json` and mochi://stats shows it. */
export interface EvalRecord {
  format: "mochi-eval/1";
  /** ISO time the run finished. */
  when: string;
  repository: string;
  /** `validation`: the dataset's validation split; `files`: the files given with --files. */
  held_out: "validation" | "files";
  files: string[];
  seed: number;
  limit: number | null;
  /** Whether the prompts carried repository context. */
  context: "on" | "off";
  cases: { total: number } & Partial<Record<EvalCaseKind, number>>;
  /** The base model GGUF's path. */
  base_model: string;
  /** The base first, then each adapter. */
  models: SubjectSummary[];
  /** Each adapter's lift over the base. */
  lift: Lift[];
  bootstrap: { resamples: number; confidence: number; seed: number };
}

/** Where the last eval of the repository whose catalog is at `catalogPath` is recorded: beside the catalog. */
export function lastEvalPath(catalogPath: string): string {
  return join(dirname(catalogPath), "eval", "last.json");
}

/** Writes the record atomically (a reader sees the previous record or this one, never a part). */
export async function writeEvalRecord(path: string, record: EvalRecord): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`);
}

/** The recorded eval, or undefined when there is none or it cannot be read as one. */
export function readEvalRecord(path: string): EvalRecord | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<EvalRecord>;
    return parsed.format === "mochi-eval/1" ? (parsed as EvalRecord) : undefined;
  } catch {
    return undefined;
  }
}
