import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createEmbedder } from "@local-mcp/core/embeddings";
import type { PromptInput, TokenSample } from "@local-mcp/core/inference";
import { loadMochiConfig } from "../config.js";
import type { Catalog } from "../domain/catalog/catalog-schema.js";
import { readCatalogFile } from "../domain/catalog/catalog-file.js";
import { CatalogSearch } from "../domain/retrieval/catalog-search.js";
import { groundingFor } from "../domain/retrieval/grounding.js";
import { completionContext, questionContext } from "../domain/context/repository-context.js";
import { SERVED_FILES } from "../domain/dataset/dataset-files.js";
import { languageOf } from "../domain/files/languages.js";
import {
  completionPrompt,
  DOMAIN_ANSWER_TOKENS,
  domainPrompt,
  PREFIX_CHARS,
  SUFFIX_CHARS,
  type ContextSnippet,
} from "../domain/model/prompts.js";
import { runAdapterConvert } from "./adapter-command.js";
import { CliUsageError } from "./cli-usage-error.js";
import { repositoryRoot } from "./repository-root.js";

export interface TrainCommandOptions {
  dataset?: string;
  out?: string;
  base?: string;
  baseGguf?: string;
  backend?: string;
  rank?: string;
  alpha?: string;
  rslora?: boolean;
  epochs?: string;
  minutes?: string;
  maxSteps?: string;
  lr?: string;
  seed?: string;
  batchSize?: string;
  evalEvery?: string;
  maxLength?: string;
  targets?: string;
  context?: string;
  resume?: boolean;
  quiet?: boolean;
}

/** The environment the command reads (PYTHON, PATH, HOME, XDG_CACHE_HOME, pip's settings), passed in by cli.ts. */
export type TrainEnv = NodeJS.ProcessEnv;

/** Where `mochi train` wrote its results. */
export interface TrainResult {
  peftAdapter: string;
  ggufAdapter: string;
  runDir: string;
  bestValLoss: number;
  firstValLoss: number;
  steps: number;
}

/** The id files the trainer reads, written into the run directory. */
export const ID_FILES = { train: "train.ids.jsonl", valid: "valid.ids.jsonl" } as const;

interface ServedLine {
  group: string;
  prompt: PromptInput;
  completion: string;
}

/** Repository context as the server adds it: the catalog, MOCHI_CONTEXT (or --context), the model's context size. */
export interface TrainContext {
  catalog: Catalog | undefined;
  enabled: boolean;
  contextSize: number;
  /** domain_query's catalog search (the same embedder as the server's), for the questions' grounding. */
  search: CatalogSearch;
}

/** What the server adds to a sample's prompt besides the sample's own text. */
interface Additions {
  snippets: ContextSnippet[];
  /** The briefs of the catalog entries domain_query grounds the question in (questions only). */
  grounding: string[];
}

/**
 * What the server adds to a sample's prompt: complete_code and domain_query put snippets from the
 * catalog (repository-context.ts) ahead of the code or in the question's Input, counted with the
 * model's tokenizer (none when off or without a catalog); domain_query also grounds a question in
 * catalog entries (grounding.ts), whatever MOCHI_CONTEXT says.
 */
async function additionsOf(line: ServedLine, context: TrainContext, countTokens: (text: string) => Promise<number>): Promise<Additions> {
  const { prompt } = line;
  const settings = { enabled: true, contextSize: context.contextSize, countTokens };
  const on = context.enabled && context.catalog !== undefined;
  if (prompt.kind === "infill") {
    const snippets =
      on && context.catalog
        ? await completionContext(context.catalog, { prefix: prompt.prefix, language: languageOf(line.group) }, settings)
        : [];
    return { snippets, grounding: [] };
  }
  if (prompt.kind === "alpaca") {
    const question = { instruction: prompt.instruction, input: prompt.input ?? "" };
    const snippets = on && context.catalog ? await questionContext(context.catalog, question, settings) : [];
    const grounding = await groundingFor(context.search, context.catalog, question);
    return { snippets, grounding: grounding.map((g) => g.entry.brief) };
  }
  return { snippets: [], grounding: [] };
}

function number(name: string, value: string | undefined, check: (n: number) => boolean, must: string): string | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || !check(n))
    throw new CliUsageError(`${name} must be ${must}, got '${value}'`, "INVALID_INPUT");
  return String(n);
}

const positiveInteger = (n: number) => Number.isInteger(n) && n >= 1;
const positive = (n: number) => n > 0;

/** The directory of the shipped Python trainer (`python/` next to dist/ or src/). */
export function pythonDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, "python", "mochi_train.py"))) return join(dir, "python");
    dir = dirname(dir);
  }
  throw new Error("mochi's python/mochi_train.py is missing from its installation");
}

/** The default backend: mlx on Apple Silicon, peft elsewhere. */
export function defaultBackend(): "peft" | "mlx" {
  return process.platform === "darwin" && process.arch === "arm64" ? "mlx" : "peft";
}

function readServed(path: string): ServedLine[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as ServedLine);
}

/** Tokens a sample may have at most unless --max-length says otherwise. */
export const DEFAULT_MAX_LENGTH = 2048;

/**
 * The sample's ids with what the server adds to its prompt, within `maxLength` tokens: a
 * completion prompt too long keeps half as much code around the cursor, again and again, with the
 * same context, as complete_code does when a prompt does not fit the model's context (for a file
 * longer than the window the halving starts from the served window, not the whole file); a
 * question too long — for `maxLength`, or for the model's context with domain_query's default
 * answer room — drops a catalog entry, then a definition, as domain_query does, and is left out
 * (undefined) when even the bare question does not fit, never cut.
 */
function fitted(
  line: ServedLine,
  additions: Additions,
  sample: (prompt: PromptInput) => TokenSample,
  maxLength: number,
  contextSize: number,
): TokenSample | undefined {
  const { prompt } = line;
  if (prompt.kind === "infill") {
    const language = languageOf(line.group);
    let window = { prefixChars: PREFIX_CHARS, suffixChars: SUFFIX_CHARS };
    for (;;) {
      const result = sample(
        completionPrompt({ prefix: prompt.prefix, suffix: prompt.suffix, context: additions.snippets, language, ...window }),
      );
      if (result.ids.length <= maxLength) return result;
      // completeAt's retry (complete-at.ts): half the window while it is over 200 characters.
      if (window.prefixChars <= 200) return undefined;
      window = { prefixChars: Math.floor(window.prefixChars / 2), suffixChars: Math.floor(window.suffixChars / 2) };
    }
  }
  if (prompt.kind !== "alpaca") {
    const result = sample(prompt);
    return result.ids.length <= maxLength ? result : undefined;
  }
  let { grounding, snippets: context } = additions;
  for (;;) {
    const result = sample(domainPrompt({ instruction: prompt.instruction, input: prompt.input ?? "", grounding, context }));
    // What domain_query sends for a call with the default max_tokens fits the model's context with it.
    if (result.ids.length <= maxLength && result.promptTokens + DOMAIN_ANSWER_TOKENS <= contextSize) return result;
    // domain_query's retry (tools/domain-query.ts): one catalog entry fewer, then one definition fewer.
    if (grounding.length > 0) grounding = grounding.slice(0, -1);
    else if (context.length > 0) context = context.slice(0, -1);
    else return undefined;
  }
}

/** Writes a file whole or not at all (a temporary name, then a rename). */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/**
 * The dataset's served samples as token ids, with the base GGUF's own tokenizer (core's
 * LlamaTokenizer.sample: the ids the engine evaluates for the prompt, the completion, the end
 * token): `{"ids":[...],"prompt_tokens":N}` a line.
 */
export async function writeIdFiles(
  baseGguf: string,
  datasetDir: string,
  runDir: string,
  context: TrainContext,
  maxLength = DEFAULT_MAX_LENGTH,
): Promise<{ train: number; valid: number; left: number }> {
  const { openLlamaTokenizer } = await import("@local-mcp/core/inference");
  const tokenizer = await openLlamaTokenizer(baseGguf);
  const data = join(runDir, "data");
  mkdirSync(data, { recursive: true });
  const counts = { train: 0, valid: 0, left: 0 };
  try {
    for (const split of ["train", "valid"] as const) {
      const countTokens = (text: string) => Promise.resolve(tokenizer.tokenize(text).length);
      const lines: string[] = [];
      for (const [index, served] of readServed(join(datasetDir, SERVED_FILES[split])).entries()) {
        const additions = await additionsOf(served, context, countTokens);
        const sample = fitted(served, additions, (prompt) => tokenizer.sample(prompt, served.completion), maxLength, context.contextSize);
        if (!sample) {
          counts.left += 1;
          continue;
        }
        // `sample`: the line of the served file it comes from (the trainer reads ids and prompt_tokens only).
        lines.push(`{"ids":[${sample.ids.join(",")}],"prompt_tokens":${sample.promptTokens},"sample":${index}}\n`);
      }
      writeAtomically(join(data, ID_FILES[split]), lines.join(""));
      counts[split] = lines.length;
    }
  } finally {
    await tokenizer.dispose();
  }
  return counts;
}

interface TrainerEvent {
  event: "start" | "step" | "eval" | "done";
  step?: number;
  total_steps?: number | null;
  loss?: number;
  val_loss?: number;
  best_val_loss?: number;
  best_step?: number;
  tokens_per_s?: number | null;
  eta_s?: number | null;
  device?: string;
  steps?: number;
}

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/**
 * The trainer's JSON progress as one stderr line: step, loss, validation loss, tokens/s, ETA — a
 * bar redrawn in place on a TTY, else the first step, a line at most every 5 s, and one per evaluation.
 */
export class TrainProgress {
  private lastLine = 0;
  private lastVal: string = "";
  private drawn = false;

  constructor(
    private readonly enabled: boolean,
    private readonly tty: boolean,
    private readonly write: (text: string) => void = (text) => void process.stderr.write(text),
  ) {}

  event(e: TrainerEvent): void {
    if (!this.enabled) return;
    if (e.event === "start") {
      this.line(`mochi train: training on ${e.device ?? "?"}, ${e.total_steps ?? "?"} steps`, true);
      return;
    }
    if (e.event === "eval") {
      this.lastVal = ` val ${e.val_loss?.toFixed(3)} (best ${e.best_val_loss?.toFixed(3)} @${e.best_step})`;
      this.line(
        `mochi train: step ${e.step ?? 0} validation loss ${e.val_loss?.toFixed(4)}${this.lastVal.replace(/^ val [^ ]+/, "")}`,
        true,
      );
      return;
    }
    if (e.event !== "step") return;
    const total = e.total_steps ?? undefined;
    const share = total ? Math.min(1, (e.step ?? 0) / total) : undefined;
    const bar = this.tty && share !== undefined ? `[${"#".repeat(Math.round(share * 20)).padEnd(20, ".")}] ` : "";
    const text =
      `mochi train: ${bar}step ${e.step}${total ? `/${total}` : ""} loss ${e.loss?.toFixed(3)}${this.lastVal}` +
      `${e.tokens_per_s ? `, ${Math.round(e.tokens_per_s)} tok/s` : ""}${e.eta_s !== undefined && e.eta_s !== null ? `, ETA ${clock(e.eta_s)}` : ""}`;
    // Off a TTY the first step is always shown (what a step costs), then a line at most every 5 s.
    this.line(text, !this.tty && e.step === 1);
  }

  private line(text: string, always: boolean): void {
    if (this.tty) {
      this.write(`\r\u001b[2K${text}${always ? "\n" : ""}`);
      this.drawn = !always;
      return;
    }
    const now = performance.now();
    if (!always && now - this.lastLine < 5_000) return;
    this.lastLine = now;
    this.write(`${text}\n`);
  }

  finish(): void {
    if (this.drawn) this.write("\n");
    this.drawn = false;
  }
}

/**
 * `mochi train`: in the indexed repository, the served samples `mochi dataset` wrote → token ids
 * with the base GGUF's tokenizer → mochi_train.py (LoRA, peft or mlx) in a Python environment made
 * for its pinned requirements → the best adapter by validation loss, converted to a GGUF LoRA
 * checked against the base GGUF. Prints where both adapters are.
 */
export async function runTrainCommand(repo: string | undefined, options: TrainCommandOptions, env: TrainEnv): Promise<TrainResult> {
  const root = repositoryRoot(repo ?? ".");
  const backend = options.backend ?? defaultBackend();
  if (backend !== "peft" && backend !== "mlx") throw new CliUsageError(`--backend must be peft or mlx, got '${backend}'`, "INVALID_INPUT");
  if (!options.baseGguf)
    throw new CliUsageError(
      "train needs --base-gguf <model.gguf>: its tokenizer makes the training ids and it checks the GGUF LoRA",
      "INVALID_INPUT",
    );
  if (!options.base)
    throw new CliUsageError(
      `train needs --base <model>: the ${backend === "peft" ? "Hugging Face model directory" : "mlx model"} of the same model to train`,
      "INVALID_INPUT",
    );
  const baseGguf = resolve(options.baseGguf);
  if (!existsSync(baseGguf) || !statSync(baseGguf).isFile())
    throw new CliUsageError(`${baseGguf} does not exist; give the base model GGUF`, "NOT_FOUND");
  // An mlx base may be a Hugging Face repository id (mlx-community/…), which mlx_lm downloads.
  const base = backend === "peft" || existsSync(options.base) ? resolve(options.base) : options.base;
  if (backend === "peft" && !existsSync(join(base, "config.json")))
    throw new CliUsageError(`${base} is not a Hugging Face model directory (no config.json)`, "NOT_FOUND");
  const args: string[] = [];
  const flag = (name: string, value: string | undefined) => {
    if (value !== undefined) args.push(name, value);
  };
  flag("--rank", number("--rank", options.rank, positiveInteger, "an integer ≥ 1"));
  flag("--alpha", number("--alpha", options.alpha, positive, "a positive number"));
  flag("--epochs", number("--epochs", options.epochs, positive, "a positive number"));
  flag("--minutes", number("--minutes", options.minutes, positive, "a positive number"));
  flag("--max-steps", number("--max-steps", options.maxSteps, positiveInteger, "an integer ≥ 1"));
  flag("--lr", number("--lr", options.lr, positive, "a positive number"));
  flag(
    "--seed",
    number("--seed", options.seed, (n) => Number.isInteger(n) && n >= 0, "a non-negative integer"),
  );
  flag("--batch-size", number("--batch-size", options.batchSize, positiveInteger, "an integer ≥ 1"));
  flag("--eval-every", number("--eval-every", options.evalEvery, positiveInteger, "an integer ≥ 1"));
  flag(
    "--max-length",
    number("--max-length", options.maxLength, (n) => Number.isInteger(n) && n >= 8, "an integer ≥ 8"),
  );
  if (options.targets !== undefined) {
    if (!/^[A-Za-z0-9_.]+(,[A-Za-z0-9_.]+)*$/.test(options.targets))
      throw new CliUsageError(`--targets must be module names separated by commas, got '${options.targets}'`, "INVALID_INPUT");
    args.push("--targets", options.targets);
  }
  if (options.rslora) args.push("--rslora");
  if (options.resume) args.push("--resume");

  const datasetDir = resolve(options.dataset ?? join(root, ".mochi", "dataset"));
  for (const file of Object.values(SERVED_FILES)) {
    if (!existsSync(join(datasetDir, file)))
      throw new CliUsageError(`no ${file} in ${datasetDir}; run \`mochi dataset ${root}\` first (or give --dataset <dir>)`, "NOT_FOUND");
  }
  if (options.context !== undefined && options.context !== "on" && options.context !== "off")
    throw new CliUsageError(`--context must be on or off, got '${options.context}'`, "INVALID_INPUT");
  const config = loadMochiConfig(env, root);
  const catalogPath = join(root, ".mochi", "catalog.json");
  const context: TrainContext = {
    enabled: options.context === undefined ? config.repositoryContext : options.context === "on",
    contextSize: config.contextSize,
    catalog: existsSync(catalogPath) ? readCatalogFile(catalogPath) : undefined,
    search: new CatalogSearch(createEmbedder()),
  };
  const runDir = resolve(options.out ?? join(root, ".mochi", "train"));
  const quiet = options.quiet ?? false;
  const say = (line: string) => {
    if (!quiet) process.stderr.write(`mochi train: ${line}\n`);
  };

  // The Python environment first: a missing Python fails before any work.
  const { ensurePythonEnv } = await import("@local-mcp/core/python-env");
  const python = pythonDir();
  const pyEnv = await ensurePythonEnv({ requirementsFile: join(python, `requirements-${backend}.txt`), env, progress: say });

  say(`tokenizing ${datasetDir} with ${basename(baseGguf)}`);
  const maxLength = options.maxLength === undefined ? DEFAULT_MAX_LENGTH : Number(options.maxLength);
  const counts = await writeIdFiles(baseGguf, datasetDir, runDir, context, maxLength);
  say(
    `${counts.train} train and ${counts.valid} valid samples in ${join(runDir, "data")}` +
      `${context.enabled && context.catalog ? ", with the repository context the server adds" : ""}` +
      `${counts.left > 0 ? `; ${counts.left} samples longer than ${maxLength} tokens left out` : ""}`,
  );

  const trainerArgs = [
    join(python, "mochi_train.py"),
    "--backend",
    backend,
    "--base",
    base,
    "--train",
    join(runDir, "data", ID_FILES.train),
    "--valid",
    join(runDir, "data", ID_FILES.valid),
    "--out",
    runDir,
    ...args,
  ];
  const progress = new TrainProgress(!quiet, process.stderr.isTTY === true);
  const events: TrainerEvent[] = [];
  const stderrTail: string[] = [];
  const code = await new Promise<number | null>((resolveExit, reject) => {
    const child = spawn(pyEnv.python, trainerArgs, { env: { ...env, PYTHONUNBUFFERED: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let pending = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("{")) continue;
        try {
          const event = JSON.parse(line) as TrainerEvent;
          events.push(event);
          progress.event(event);
        } catch {
          // Not one of the trainer's lines (a library printing on stdout): skipped.
        }
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderrTail.push(...chunk.split("\n").filter((l) => l.trim() !== ""));
      stderrTail.splice(0, Math.max(0, stderrTail.length - 20));
    });
    child.on("error", reject);
    child.on("close", resolveExit);
  });
  progress.finish();
  const done = events.find((e) => e.event === "done");
  if (code !== 0 || !done) {
    const why =
      stderrTail
        .filter((l) => !/Warning|warn\(/.test(l))
        .slice(-3)
        .join(" | ") || stderrTail.slice(-3).join(" | ");
    throw new Error(
      `the trainer failed (exit ${String(code)})${why ? `: ${why}` : ""}; the checkpoints so far are in ${runDir} (--resume goes on from the last)`,
    );
  }
  const evals = events.filter((e) => e.event === "eval");

  const peftAdapter = join(runDir, "best");
  const ggufAdapter = join(runDir, "adapter.gguf");
  await runAdapterConvert(peftAdapter, { out: ggufAdapter, base: baseGguf, name: `mochi-${basename(root)}`, dataset: datasetDir });
  const result: TrainResult = {
    peftAdapter,
    ggufAdapter,
    runDir,
    bestValLoss: done.best_val_loss ?? Number.NaN,
    firstValLoss: evals[0]?.val_loss ?? Number.NaN,
    steps: done.steps ?? 0,
  };
  process.stdout.write(
    `trained ${result.steps} steps (${backend}): validation loss ${result.firstValLoss} → ${result.bestValLoss} (best)\n` +
      `PEFT adapter: ${peftAdapter}\nGGUF LoRA: ${ggufAdapter}\nServe it: MOCHI_MODEL=${baseGguf} MOCHI_ADAPTER=${ggufAdapter} mochi-mcp\n`,
  );
  return result;
}
