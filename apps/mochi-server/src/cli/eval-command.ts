import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import type { LlamaEngine, PromptInput } from "@local-mcp/core/inference";
import { loadMochiConfig } from "../config.js";
import { completionContext } from "../domain/context/repository-context.js";
import { buildDataset } from "../domain/dataset/build-dataset.js";
import { buildEvalCases, type EvalCase } from "../domain/eval/eval-cases.js";
import { lastEvalPath, writeEvalRecord, type EvalRecord } from "../domain/eval/eval-record.js";
import { liftOf, runEvalCases, summarise, type CaseOutcome, type ContinuationScore, type SubjectSummary } from "../domain/eval/eval-run.js";
import { parseAdapterList, type AdapterSpec } from "../domain/model/adapter-spec.js";
import { CliUsageError } from "./cli-usage-error.js";
import { indexRepository } from "./index-command.js";
import { repositoryRoot } from "./repository-root.js";

export interface EvalCommandOptions {
  files?: string[];
  dataset?: string;
  seed?: string;
  limit?: string;
  model?: string;
  adapter?: string[];
  context?: string;
  format?: string;
  quiet?: boolean;
}

/** Cases run unless --limit says otherwise. */
export const DEFAULT_EVAL_LIMIT = 200;
const BOOTSTRAP_RESAMPLES = 2_000;

/** What the command needs from the environment: the server's MOCHI_* variables. */
export type EvalEnv = Record<string, string | undefined>;

/**
 * `mochi eval [repo]`: held-out files (the dataset's validation split, or --files) → next-line and
 * fill-in-the-middle cases → completeAt (complete_code's path) on the base model and on each
 * adapter → exact match, similarity, cross-entropy and the lift with its paired bootstrap interval;
 * a table (or JSON) on stdout, progress on stderr, the record in .mochi/eval/last.json.
 */
export async function runEvalCommand(repo: string | undefined, options: EvalCommandOptions, env: EvalEnv): Promise<void> {
  const format = options.format ?? "table";
  if (format !== "table" && format !== "json") throw new CliUsageError(`--format must be table or json, got '${format}'`, "INVALID_INPUT");
  const { record, recorded } = await evaluateRepository(repo, options, env);
  process.stdout.write(format === "json" ? `${JSON.stringify(record, null, 2)}\n` : renderEvalTable(record, recorded));
}

/** The eval itself (everything `mochi eval` does but print): the record, written to `recorded`. */
export async function evaluateRepository(
  repo: string | undefined,
  options: EvalCommandOptions,
  env: EvalEnv,
): Promise<{ record: EvalRecord; recorded: string }> {
  const seed = integerOption("--seed", options.seed, 42, 0);
  const limit = integerOption("--limit", options.limit, DEFAULT_EVAL_LIMIT, 1);
  if (options.context !== undefined && options.context !== "on" && options.context !== "off") {
    throw new CliUsageError(`--context must be on or off, got '${options.context}'`, "INVALID_INPUT");
  }
  const root = repositoryRoot(repo ?? ".");
  const config = loadMochiConfig(env, root);
  // As the server: MOCHI_CONTEXT (default on) unless --context says otherwise.
  const context = options.context === undefined ? (config.repositoryContext ? "on" : "off") : options.context;
  const modelPath = options.model === undefined ? config.modelPath : resolve(options.model);
  if (modelPath === undefined) {
    throw new CliUsageError(
      config.backend
        ? "mochi eval runs a local GGUF model, not MOCHI_BACKEND_URL: set MOCHI_MODEL or give --model <base.gguf>"
        : "no base model: set MOCHI_MODEL or give --model <base.gguf>",
      "INVALID_INPUT",
    );
  }
  if (!existsSync(modelPath)) throw new CliUsageError(`${modelPath} does not exist; give the base model GGUF`, "NOT_FOUND");
  const adapters = adapterSubjects(options.adapter, options.model === undefined ? config.adapters : []);
  for (const spec of adapters.flat()) {
    if (!existsSync(spec.path)) throw new CliUsageError(`${spec.path} does not exist; give a GGUF LoRA adapter`, "NOT_FOUND");
  }

  const quiet = options.quiet ?? false;
  // Files named with --files are checked before the repository is indexed: a mistyped path is
  // bad usage, answered at once in one line (indexing can take long enough to print progress).
  // So is a missing or unreadable dataset.
  const given = options.files && options.files.length > 0 ? givenFiles(root, options.files) : undefined;
  const split = given ? undefined : datasetSplit(root, options.dataset);
  const { scan, catalog } = await indexRepository(root, quiet, "mochi eval");
  const heldOut = given ? "files" : "validation";
  const paths =
    split === undefined
      ? (given ?? [])
      : validationFiles(split, scan, catalog, (line) => {
          if (!quiet) process.stderr.write(line);
        });
  const wanted = new Set(paths);
  const files = scan.files.filter((f) => wanted.has(f.path));
  const missing = paths.filter((p) => !files.some((f) => f.path === p));
  if (missing.length > 0) {
    throw new CliUsageError(
      `${missing.join(", ")}: not a source file mochi reads in ${root} (ignored, too large, or another language)`,
      "NOT_FOUND",
    );
  }
  const cases = buildEvalCases(files, { seed, limit });
  if (cases.length === 0) {
    throw new CliUsageError(
      `the held-out files (${paths.join(", ")}) have no declaration of 3–200 lines to make cases from`,
      "INVALID_INPUT",
    );
  }

  const { LlamaEngine } = await import("@local-mcp/core/inference");
  const subjects = [{ label: "base", adapters: [] as AdapterSpec[] }, ...adapters.map((a) => ({ label: adapterLabel(a), adapters: a }))];
  const progress = new EvalProgress(cases.length * subjects.length, !quiet);
  const summaries: SubjectSummary[] = [];
  const outcomes: CaseOutcome[][] = [];
  for (const subject of subjects) {
    const engine = new LlamaEngine({
      modelPath,
      adapters: subject.adapters,
      gpu: config.gpu,
      ...(config.threads === undefined ? {} : { threads: config.threads }),
      contextSize: config.contextSize,
      sequences: 1,
      reusePrefix: true,
      memoryBoundBytes: config.memoryBoundBytes,
      // No client waits on an eval: a case gets a generous minute rather than the server's deadline.
      deadlineMs: Math.max(config.deadlineMs, 60_000),
    });
    try {
      await engine.load();
      const started = performance.now();
      const settings = {
        enabled: context === "on",
        contextSize: config.contextSize,
        countTokens: async (text: string) => (await engine.tokenize(text)).length,
      };
      const done = await runEvalCases({ label: subject.label, model: engine, score: scorer(engine) }, cases, {
        contextFor: (c) => completionContext(catalog, { prefix: c.prefix, language: c.language }, settings),
        onCase: (n) => progress.update(subject.label, n, cases.length),
      });
      summaries.push(summarise(subject.label, cases, done, (performance.now() - started) / 1000));
      outcomes.push(done);
    } finally {
      await engine.dispose();
    }
  }
  progress.finish();

  const base = outcomes[0] as CaseOutcome[];
  const record: EvalRecord = {
    format: "mochi-eval/1",
    when: new Date().toISOString(),
    repository: root,
    held_out: heldOut,
    files: paths,
    seed,
    limit,
    context,
    cases: { total: cases.length, ...countKinds(cases) },
    base_model: modelPath,
    models: summaries,
    lift: subjects.slice(1).map((s, i) => liftOf(s.label, outcomes[i + 1] as CaseOutcome[], base, seed)),
    bootstrap: { resamples: BOOTSTRAP_RESAMPLES, confidence: 0.95, seed },
  };
  const recorded = lastEvalPath(join(root, ".mochi", "catalog.json"));
  await writeEvalRecord(recorded, record);
  return { record, recorded };
}

function integerOption(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new CliUsageError(`${name} must be an integer ≥ ${min}, got '${value}'`, "INVALID_INPUT");
  return n;
}

/** Each --adapter is one subject (a MOCHI_ADAPTER-style list, stacked as the server stacks it); without any, MOCHI_ADAPTER's. */
function adapterSubjects(flags: readonly string[] | undefined, fromEnv: readonly AdapterSpec[]): AdapterSpec[][] {
  if (flags === undefined || flags.length === 0) return fromEnv.length > 0 ? [[...fromEnv]] : [];
  return flags.map((flag) => {
    try {
      return parseAdapterList(flag).map((a) => ({ path: resolve(a.path), scale: a.scale }));
    } catch (error) {
      throw new CliUsageError(`--adapter '${flag}': ${(error as Error).message}`, "INVALID_INPUT");
    }
  });
}

function adapterLabel(specs: readonly AdapterSpec[]): string {
  return specs.map((s) => `${basename(s.path)}@${s.scale}`).join("+");
}

/** --files as repository-relative paths with forward slashes, as the scan names them. */
function givenFiles(root: string, files: readonly string[]): string[] {
  return [
    ...new Set(
      files.map((file) => {
        const absolute = resolve(file);
        const inside = existsSync(absolute) ? absolute : resolve(root, file);
        if (!existsSync(inside) || !statSync(inside).isFile()) throw new CliUsageError(`${file} is not a file`, "NOT_FOUND");
        const path = relative(root, inside).split("\\").join("/");
        if (path.startsWith("../")) throw new CliUsageError(`${file} is outside the repository ${root}`, "INVALID_INPUT");
        return path;
      }),
    ),
  ].sort();
}

/** How the dataset `mochi dataset` wrote was split (its dataset.json). */
interface DatasetSplit {
  metadataPath: string;
  seed: number;
  validRatio: number;
  catalogVersion: unknown;
}

/** The dataset's dataset.json, read and checked before any work (bad usage answered at once). */
function datasetSplit(root: string, datasetDir: string | undefined): DatasetSplit {
  const dir = resolve(datasetDir ?? join(root, ".mochi", "dataset"));
  const metadataPath = join(dir, "dataset.json");
  if (!existsSync(metadataPath)) {
    throw new CliUsageError(`no dataset at ${dir} (dataset.json): run \`mochi dataset ${root}\` first, or give --files`, "NOT_FOUND");
  }
  let metadata: { seed?: unknown; validRatio?: unknown; catalogVersion?: unknown };
  try {
    metadata = JSON.parse(readFileSync(metadataPath, "utf8")) as typeof metadata;
  } catch (error) {
    throw new CliUsageError(
      `${metadataPath} cannot be read as JSON (${(error as Error).message}): write it again with \`mochi dataset\``,
      "INVALID_INPUT",
    );
  }
  if (typeof metadata.seed !== "number" || typeof metadata.validRatio !== "number") {
    throw new CliUsageError(`${metadataPath} has no seed and validRatio: write it again with \`mochi dataset\``, "INVALID_INPUT");
  }
  return { metadataPath, seed: metadata.seed, validRatio: metadata.validRatio, catalogVersion: metadata.catalogVersion };
}

/**
 * The validation split of the dataset `mochi dataset` wrote: its dataset.json gives the seed and
 * the share, and the split is made again on the same repository (the groups of code samples are
 * file paths), so the held-out files are exactly those whose samples went to valid.jsonl.
 */
function validationFiles(
  metadata: DatasetSplit,
  scan: Parameters<typeof buildDataset>[0],
  catalog: Parameters<typeof buildDataset>[1],
  note: (line: string) => void,
): string[] {
  if (typeof metadata.catalogVersion === "string" && metadata.catalogVersion !== catalog.version) {
    // The split is made on the files as they are now: a file added since may be held out, one the adapter trained on may have changed.
    note(
      `mochi eval: the repository changed since the dataset was written (catalog ${metadata.catalogVersion}, now ${catalog.version}); the validation split is made on the current files\n`,
    );
  }
  const dataset = buildDataset(scan, catalog, { seed: metadata.seed, validRatio: metadata.validRatio });
  const sourceFiles = new Set(scan.files.map((f) => f.path));
  const files = [...new Set(dataset.valid.map((s) => s.group))].filter((g) => sourceFiles.has(g)).sort();
  if (files.length === 0) {
    throw new CliUsageError(
      `the dataset's validation split holds no source file (valid ratio ${metadata.validRatio}); give --files`,
      "INVALID_INPUT",
    );
  }
  return files;
}

/**
 * The log-likelihood of the expected text's tokens after the prompt's, from the engine's logits —
 * tokenized as a training sample is (LlamaEngine.sample: the prompt's ids, then the text as it
 * continues them; the end-of-sequence id left out, since a case's text is not the end of the file).
 */
function scorer(engine: LlamaEngine): (prompt: PromptInput, expected: string) => Promise<ContinuationScore> {
  return async (prompt, expected) => {
    const sample = await engine.sample(prompt, expected);
    const ids = sample.ids.slice(0, -1);
    if (ids.length > engine.config.contextSize || ids.length <= sample.promptTokens) return { tokens: 0, nats: 0 };
    const logProbabilities = await engine.tokenLogProbabilities(ids, sample.promptTokens);
    return { tokens: logProbabilities.length, nats: -logProbabilities.reduce((a, b) => a + b, 0) };
  };
}

function countKinds(cases: readonly EvalCase[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of cases) counts[c.kind] = (counts[c.kind] ?? 0) + 1;
  return counts;
}

const percent = (share: number) => `${(100 * share).toFixed(1)} %`;
const signed = (value: number, digits: number, scale = 1) => `${value >= 0 ? "+" : ""}${(value * scale).toFixed(digits)}`;

/** The record as the table `mochi eval` prints. */
export function renderEvalTable(record: EvalRecord, recordedAt: string): string {
  const kinds = Object.entries(record.cases)
    .filter(([k]) => k !== "total")
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
  const source = record.held_out === "validation" ? "the dataset's validation split" : "--files";
  const rows = [
    ["model", "exact match", "similarity", "cross-entropy (nats/token)", "cases/s"],
    ...record.models.map((m) => [
      m.label,
      percent(m.exact_match),
      m.similarity.toFixed(3),
      m.cross_entropy === null ? "n/a" : m.cross_entropy.toFixed(3),
      m.cases_per_second.toFixed(1),
    ]),
  ];
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? [];
  const table = rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join("  "));
  const lines = [
    `mochi eval: ${record.cases.total} cases (${kinds}) from ${record.files.length} held-out files (${source}), seed ${record.seed}, context ${record.context}`,
    `base model ${basename(record.base_model)}`,
    "",
    ...table,
  ];
  if (record.lift.length > 0) {
    lines.push(
      "",
      `lift, adapter − base (paired bootstrap ${Math.round(record.bootstrap.confidence * 100)} % interval, ${record.bootstrap.resamples} resamples):`,
    );
    for (const lift of record.lift) {
      const ce = lift.cross_entropy;
      lines.push(
        `${lift.label}  exact match ${signed(lift.exact_match.mean, 1, 100)} points [${signed(lift.exact_match.low, 1, 100)}, ${signed(lift.exact_match.high, 1, 100)}]` +
          `  similarity ${signed(lift.similarity.mean, 3)} [${signed(lift.similarity.low, 3)}, ${signed(lift.similarity.high, 3)}]` +
          (ce === null ? "" : `  cross-entropy ${signed(ce.mean, 3)} [${signed(ce.low, 3)}, ${signed(ce.high, 3)}] nats/token`),
      );
    }
  } else {
    lines.push("", "no adapter to compare: set MOCHI_ADAPTER or give --adapter <lora.gguf>");
  }
  lines.push("", `recorded in ${recordedAt}`);
  return `${lines.join("\n")}\n`;
}

/** Cases done over all models, their rate and the time left, on stderr once a second after the first. */
class EvalProgress {
  private readonly started = performance.now();
  private lastPrinted: number | undefined;
  private done = 0;
  private offset = 0;
  private label = "";

  constructor(
    private readonly total: number,
    private readonly enabled: boolean,
  ) {}

  update(label: string, doneInSubject: number, perSubject: number): void {
    if (label !== this.label) {
      if (this.label !== "") this.offset += perSubject;
      this.label = label;
    }
    this.done = this.offset + doneInSubject;
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.started < 1_000 || (this.lastPrinted !== undefined && now - this.lastPrinted < 1_000)) return;
    this.lastPrinted = now;
    const rate = this.done / ((now - this.started) / 1000);
    const eta = rate > 0 ? (this.total - this.done) / rate : 0;
    process.stderr.write(
      `mochi eval: ${label} ${doneInSubject}/${perSubject}, ${this.done}/${this.total} cases in all (${Math.floor((100 * this.done) / this.total)}%), ${rate.toFixed(1)} cases/s, ETA ${Math.ceil(eta)} s\n`,
    );
  }

  finish(): void {
    if (this.enabled && this.lastPrinted !== undefined) {
      process.stderr.write(`mochi eval: ${this.done} cases in ${((performance.now() - this.started) / 1000).toFixed(1)} s\n`);
    }
  }
}
