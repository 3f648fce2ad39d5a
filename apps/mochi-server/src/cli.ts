#!/usr/bin/env node
// `mochi`: index a repository into a catalog, build training data, convert adapters. Results on
// stdout, progress and errors on stderr; exit 0 on success, 1 on failure, 2 on bad usage.
// Commands load their modules when they run: `--help` and usage errors stay fast.
import { Command, CommanderError } from "commander";
import { CliUsageError } from "./cli/cli-usage-error.js";
import { APP_INFO } from "./app-info.js";

const width = Math.max(...APP_INFO.env.map((v) => v.name.length)) + 2;
const HELP_AFTER = [
  "",
  "Exit status:",
  "  0  success",
  "  1  failure: a command could not finish (an unreadable file, a failed conversion); the reason is one line on stderr",
  "  2  bad usage: an unknown command or option, a missing or bad argument (a repository path that does not exist or is not a directory)",
  "",
  "Environment: mochi eval reads MOCHI_MODEL, MOCHI_ADAPTER, MOCHI_CONTEXT, MOCHI_GPU, MOCHI_THREADS, MOCHI_CONTEXT_SIZE and MOCHI_MEMORY_BOUND as the server does; mochi train reads MOCHI_CONTEXT and MOCHI_CONTEXT_SIZE as the server does, PYTHON (the Python 3.10+ that makes its environment, default python3) and XDG_CACHE_HOME (where that environment is kept); the other commands read none. The server, mochi-mcp, reads these (see mochi-mcp --help):",
  ...APP_INFO.env.map((v) => `  ${v.name.padEnd(width)}${v.description}`),
  "",
].join("\n");

const program = new Command("mochi")
  .description("Mochi: a codebase's catalog, training data and adapters for the mochi-mcp server")
  .version(APP_INFO.version)
  .exitOverride()
  .showHelpAfterError()
  .addHelpText("after", HELP_AFTER);

program
  .command("index")
  .description("Catalog a repository (conventions, patterns, examples) into <repo>/.mochi/catalog.json")
  .argument("<repo>", "repository root")
  .option("-o, --out <file>", "catalog path (default <repo>/.mochi/catalog.json)")
  .option("-q, --quiet", "no progress on stderr")
  .action(async (repo: string, options: { out?: string; quiet?: boolean }) =>
    (await import("./cli/index-command.js")).runIndexCommand(repo, options),
  );

program
  .command("dataset")
  .description("Alpaca JSONL training data (completion, FIM, explanations, pattern Q&A) with a train/valid split")
  .argument("<repo>", "repository root")
  .option("-o, --out <dir>", "output directory (default <repo>/.mochi/dataset)")
  .option("--seed <n>", "seed of the FIM spans and the split (default 42)")
  .option("--valid-ratio <r>", "share of records for validation (default 0.1)")
  .option("--format <format>", "alpaca ({instruction,input,output}) or completions ({prompt,completion}, for mlx_lm)", "alpaca")
  .option("-q, --quiet", "no progress on stderr")
  .action(async (repo: string, options: Record<string, string | boolean | undefined>) =>
    (await import("./cli/dataset-command.js")).runDatasetCommand(repo, {
      ...(typeof options.out === "string" ? { out: options.out } : {}),
      ...(typeof options.seed === "string" ? { seed: options.seed } : {}),
      ...(typeof options.validRatio === "string" ? { validRatio: options.validRatio } : {}),
      ...(typeof options.format === "string" ? { format: options.format } : {}),
      quiet: options.quiet === true,
    }),
  );

program
  .command("train")
  .description("Fine-tune a LoRA on the dataset `mochi dataset` wrote; writes the PEFT adapter and the GGUF LoRA")
  .argument("[repo]", "repository root, indexed, with its dataset (default: the current directory)")
  .requiredOption("--base-gguf <model.gguf>", "the base model GGUF served: its tokenizer makes the training ids; checks the GGUF LoRA")
  .requiredOption("--base <model>", "the same base model to train: a Hugging Face model directory (peft) or an mlx model (mlx)")
  .option(
    "--backend <backend>",
    "peft (transformers + peft; CUDA when present, else CPU) or mlx (mlx-lm, Apple Silicon) (default: mlx on Apple Silicon, else peft)",
  )
  .option("--dataset <dir>", "the `mochi dataset` output (default <repo>/.mochi/dataset)")
  .option("-o, --out <dir>", "run directory: ids, checkpoints, best/ and adapter.gguf (default <repo>/.mochi/train)")
  .option("--rank <r>", "LoRA rank (default 8)")
  .option("--alpha <a>", "LoRA alpha (default 16)")
  .option("--rslora", "rank-stabilised LoRA (scale alpha/√r)")
  .option("--epochs <n>", "epochs (default 3 unless --minutes or --max-steps)")
  .option("--minutes <n>", "stop after this many minutes")
  .option("--max-steps <n>", "stop after this many steps")
  .option("--lr <rate>", "learning rate (default 2e-4)")
  .option("--seed <n>", "seed (default 42)")
  .option("--batch-size <n>", "samples a step (default 4)")
  .option("--eval-every <n>", "steps between validations, each keeping the best adapter (default 50)")
  .option(
    "--max-length <n>",
    "longest sample in tokens: a longer completion prompt keeps less code around the cursor, as complete_code does; a longer question is left out (default 2048)",
  )
  .option("--targets <modules>", "modules LoRA adapts (default q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj)")
  .option("--context <on|off>", "repository context in the prompts, as complete_code and domain_query add it (default MOCHI_CONTEXT, on)")
  .option("--resume", "go on from the last checkpoint in the run directory")
  .option("-q, --quiet", "no progress on stderr")
  .addHelpText(
    "after",
    [
      "",
      "The samples are the prompts complete_code and domain_query send (prompts.ts), tokenized with the --base-gguf tokenizer.",
      "Python: a virtual environment made once for the pinned requirements (python/requirements-<backend>.txt) under",
      "local-mcp/python-envs in the user cache directory ($XDG_CACHE_HOME, else ~/.cache; ~/Library/Caches on macOS), made with",
      "uv when it is on PATH, else venv + pip, using the packages the system already has at those versions.",
    ].join("\n"),
  )
  .action(async (repo: string | undefined, options: Record<string, string | boolean | undefined>) => {
    const text = (key: string) => (typeof options[key] === "string" ? { [key]: options[key] } : {});
    await (
      await import("./cli/train-command.js")
    ).runTrainCommand(
      repo,
      {
        ...text("baseGguf"),
        ...text("base"),
        ...text("backend"),
        ...text("dataset"),
        ...text("out"),
        ...text("rank"),
        ...text("alpha"),
        ...text("epochs"),
        ...text("minutes"),
        ...text("maxSteps"),
        ...text("lr"),
        ...text("seed"),
        ...text("batchSize"),
        ...text("evalEvery"),
        ...text("maxLength"),
        ...text("targets"),
        ...text("context"),
        rslora: options.rslora === true,
        resume: options.resume === true,
        quiet: options.quiet === true,
      },
      process.env,
    );
  });

program
  .command("adapter")
  .description("LoRA adapters")
  .command("convert")
  .description("Convert a PEFT (or mlx_lm) LoRA adapter directory to a GGUF LoRA for MOCHI_ADAPTER")
  .argument("<adapter-dir>", "adapter_config.json + adapter_model.safetensors (PEFT) or adapters.safetensors (MLX)")
  .requiredOption("-o, --out <file>", "the GGUF LoRA to write")
  .option("--base <model.gguf>", "base model GGUF: gives the architecture and checks the result (advised)")
  .option("--arch <arch>", "llama or qwen2, without --base")
  .option("--heads <n>", "attention heads (llama, without --base)")
  .option("--kv-heads <n>", "KV heads (llama, without --base)")
  .option("--type <type>", "f32 (default) or f16")
  .option("--name <name>", "general.name of the adapter (default the directory's name)")
  .option("--dataset <dir>", "the `mochi dataset` output it was trained on (recorded for mochi://stats)")
  .action(async (dir: string, options: Record<string, string | undefined>) =>
    (await import("./cli/adapter-command.js")).runAdapterConvert(dir, options),
  );

program
  .command("eval")
  .description(
    "Measure the base model and each adapter on held-out code: exact match, similarity, cross-entropy, the lift with its interval",
  )
  .argument("[repo]", "repository root, indexed, with the dataset `mochi dataset` wrote (default: the current directory)")
  .option("--files <paths...>", "held-out files to evaluate on (default: the dataset's validation split)")
  .option("--dataset <dir>", "the `mochi dataset` output whose validation split is held out (default <repo>/.mochi/dataset)")
  .option("--model <base.gguf>", "base model GGUF (default MOCHI_MODEL)")
  .option("--adapter <lora.gguf[:scale]>", "an adapter to compare with the base, repeatable (default MOCHI_ADAPTER)", collect, [])
  .option("--seed <n>", "seed of the cases chosen and of the bootstrap (default 42)")
  .option("--limit <n>", "most cases (default 200)")
  .option("--context <on|off>", "repository context in the prompts, as complete_code adds it (default MOCHI_CONTEXT, on)")
  .option("--format <format>", "table or json", "table")
  .option("-q, --quiet", "no progress on stderr")
  .addHelpText(
    "after",
    [
      "",
      "Cases: for each declaration of 3-200 lines in a held-out file, the next line after a line start (scope line) and a",
      "span of 1-3 lines between the code before and after it (fill-in-the-middle, scope block), run through complete_code's",
      "own path, greedy. The base is MOCHI_MODEL without adapter. The result is also written to <repo>/.mochi/eval/last.json",
      "(shown by mochi://stats).",
    ].join("\n"),
  )
  .action(async (repo: string | undefined, options: Record<string, string | string[] | boolean | undefined>) =>
    (await import("./cli/eval-command.js")).runEvalCommand(
      repo,
      {
        ...(Array.isArray(options.files) ? { files: options.files } : {}),
        ...(typeof options.dataset === "string" ? { dataset: options.dataset } : {}),
        ...(typeof options.model === "string" ? { model: options.model } : {}),
        ...(Array.isArray(options.adapter) && options.adapter.length > 0 ? { adapter: options.adapter } : {}),
        ...(typeof options.seed === "string" ? { seed: options.seed } : {}),
        ...(typeof options.limit === "string" ? { limit: options.limit } : {}),
        ...(typeof options.context === "string" ? { context: options.context } : {}),
        ...(typeof options.format === "string" ? { format: options.format } : {}),
        quiet: options.quiet === true,
      },
      process.env,
    ),
  );

/** Commander's way to let an option repeat: each value is added to the list. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof CliUsageError) {
    process.stderr.write(`mochi: ${error.code === undefined ? "" : `${error.code}: `}${error.message}\n`);
    process.exitCode = 2;
  } else {
    // A ToolError (NOT_READY, INVALID_INPUT…) shows its code; core is not loaded just to check the class.
    const code = error instanceof Error && error.name === "ToolError" && "code" in error ? `${String(error.code)}: ` : "";
    const message = `${code}${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`mochi: ${message}\n`);
    process.exitCode = 1;
  }
}
