import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { silentLogger } from "@local-mcp/core";
import { createEmbedder } from "@local-mcp/core/embeddings";
import { LlamaEngine, type PromptInput } from "@local-mcp/core/inference";
import { writeTinyHfModel, writeTinyLlamaGguf } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ID_FILES, writeIdFiles } from "../src/cli/train-command.js";
import { readCatalogFile } from "../src/domain/catalog/catalog-file.js";
import { completionContext } from "../src/domain/context/repository-context.js";
import { CatalogSearch } from "../src/domain/retrieval/catalog-search.js";
import { languageOf } from "../src/domain/files/languages.js";
import { SERVED_FILES } from "../src/domain/dataset/dataset-files.js";
import { completionPrompt, PREFIX_CHARS, SUFFIX_CHARS } from "../src/domain/model/prompts.js";
import { copyFixtureRepo } from "./helpers/sample-repo.js";
import { connectMochi } from "./helpers/tiny-model.js";

// mochi train end to end on the tiny generated model (the GGUF and the same weights as a Hugging
// Face checkpoint, with fill-in-the-middle tokens): the fixture repository → mochi index → mochi
// dataset → mochi train for a few dozen steps on the CPU. Validation loss goes down, the GGUF LoRA
// loads in node-llama-cpp and changes the greedy output, mochi eval measures it against the base on
// the held-out files, and the ids trained on are the ids the engine evaluates for complete_code's
// prompt of the same code.

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** Whether the system Python has the trainer's packages; under CI their absence is a failure, not a skip. */
function trainerPackages(): string | undefined {
  try {
    execFileSync("python3", ["-c", "import torch, transformers, peft, safetensors"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "python3 with torch, transformers, peft and safetensors is not installed";
  }
}
const missing = trainerPackages();
if (missing && process.env.CI === "true")
  throw new Error(`mochi train's test needs ${missing.replace(/ is not installed$/, "")} (CI installs them)`);

let work: string;
let repo: string;
let gguf: string;
let hf: string;
let cache: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function mochi(args: string[], env: Record<string, string> = {}, timeout = 170_000): Promise<Run> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd: repo,
        env: { ...process.env, XDG_CACHE_HOME: cache, MOCHI_CONTEXT_SIZE: "2048", ...env },
        timeout,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "mochi-train-"));
  cache = join(work, "cache");
  gguf = join(work, "tiny-fim.gguf");
  hf = join(work, "tiny-fim-hf");
  await writeTinyLlamaGguf(gguf, { fim: true });
  await writeTinyHfModel(hf, { fim: true });
  repo = copyFixtureRepo("mochi-train-repo-");
}, 60_000);

afterAll(() => {
  for (const dir of [work, repo]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(missing !== undefined)(`mochi train${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let first: Run;
  let trained: Run;
  const runDir = () => join(repo, ".mochi", "train");

  beforeAll(async () => {
    expect((await mochi(["index", ".", "-q"])).code).toBe(0);
    expect((await mochi(["dataset", ".", "-q", "--valid-ratio", "0.2"])).code).toBe(0);
    const train = (steps: string, ...more: string[]) =>
      mochi([
        "train",
        "--base-gguf",
        gguf,
        "--base",
        hf,
        "--max-steps",
        steps,
        "--eval-every",
        "8",
        "--batch-size",
        "8",
        "--max-length",
        "640",
        "--lr",
        "0.01",
        "--rank",
        "4",
        ...more,
      ]);
    // 16 steps, then 8 more from the last checkpoint.
    first = await train("16");
    trained = await train("24", "--resume");
  }, 180_000);

  it("finds the dataset in the repository, trains, keeps the best adapter, and says where both adapters are", () => {
    expect(first.stderr).not.toMatch(/Traceback/);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^trained 16 steps \(peft\)/m);
    expect(trained.code, trained.stderr).toBe(0);
    expect(trained.stdout).toMatch(/^trained 24 steps \(peft\)/m);
    const peft = join(runDir(), "best");
    const lora = join(runDir(), "adapter.gguf");
    expect(trained.stdout).toContain(`PEFT adapter: ${peft}\n`);
    expect(trained.stdout).toContain(`GGUF LoRA: ${lora}\n`);
    expect(trained.stdout).toMatch(/checked against the base model/);
    for (const file of ["adapter_config.json", "adapter_model.safetensors", "training_metadata.json"])
      expect(existsSync(join(peft, file))).toBe(true);
    expect(existsSync(lora)).toBe(true);
    // Progress on stderr: the environment, then steps with loss, validation loss, tokens/s and ETA.
    expect(first.stderr).toMatch(/mochi train: making a Python 3\.\d+ environment/);
    expect(first.stderr).toMatch(
      /mochi train: \d+ train and \d+ valid samples in \S+, with the repository context the server adds; \d+ samples longer than 640 tokens left out\n/,
    );
    expect(first.stderr).toMatch(/mochi train: step 0 validation loss \d+\.\d+/);
    expect(first.stderr).toMatch(/mochi train: step \d+\/16 loss \d+\.\d+ val \d+\.\d+ \(best \d+\.\d+ @\d+\), \d+ tok\/s, ETA \d+:\d\d/);
    // The second run reuses the environment and goes on from step 16 (no evaluation at step 0 again).
    expect(trained.stderr).not.toMatch(/making a Python/);
    expect(trained.stderr).not.toMatch(/step 0 validation loss/);
  });

  it("validation loss goes down, and the best checkpoint is the one with the lowest", () => {
    const metadata = JSON.parse(readFileSync(join(runDir(), "best", "training_metadata.json"), "utf8")) as {
      history: Array<{ step: number; val_loss: number }>;
      best: { step: number; val_loss: number };
    };
    const history = JSON.parse(readFileSync(join(runDir(), "checkpoint", "training_metadata.json"), "utf8")).history as Array<{
      step: number;
      val_loss: number;
    }>;
    expect(history.map((h) => h.step)).toEqual([0, 8, 16, 24]);
    const first = history[0]?.val_loss ?? 0;
    const lowest = Math.min(...history.map((h) => h.val_loss));
    expect(metadata.best.val_loss).toBe(lowest);
    expect(lowest).toBeLessThan(first * 0.95);
  });

  it("the GGUF LoRA loads in node-llama-cpp and changes the greedy output", async () => {
    // A generous deadline: a busy machine must not fail a test of what the adapter does.
    const config = { modelPath: gguf, gpu: "cpu" as const, threads: 1, contextSize: 2048, deadlineMs: 60_000 };
    const prompt: PromptInput = completionPrompt({ prefix: "export function createUser(", suffix: "\n}\n" });
    const plain = new LlamaEngine(config, { logger: silentLogger });
    const adapted = new LlamaEngine(
      { ...config, adapters: [{ path: join(runDir(), "adapter.gguf"), scale: 1 }] },
      { logger: silentLogger },
    );
    try {
      const a = await plain.generate({ prompt, maxTokens: 24, temperature: 0 });
      const b = await adapted.generate({ prompt, maxTokens: 24, temperature: 0 });
      expect(b.mode).toBe("infill");
      expect(b.text).not.toBe(a.text);
    } finally {
      await plain.dispose();
      await adapted.dispose();
    }
  });

  it("mochi eval measures the base and the trained adapter on the held-out split: the adapter's cross-entropy is lower, with an interval", async () => {
    // One thread: llama.cpp's threads wait on each other spinning, which a busy 2-core machine turns into seconds a token.
    const run = await mochi(
      ["eval", "--model", gguf, "--adapter", join(runDir(), "adapter.gguf"), "--limit", "6", "--format", "json", "-q"],
      {
        MOCHI_THREADS: "1",
      },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      held_out: string;
      models: { label: string; cases: number; cross_entropy: number }[];
      lift: { label: string; cross_entropy: { mean: number; low: number; high: number } }[];
    };
    expect(report.held_out).toBe("validation");
    expect(report.models.map((m) => [m.label, m.cases])).toEqual([
      ["base", 6],
      ["adapter.gguf@1", 6],
    ]);
    const [base, adapter] = report.models;
    // Trained on this repository's other files, the adapter predicts its held-out code better than the random base.
    expect(adapter?.cross_entropy).toBeLessThan((base?.cross_entropy ?? 0) - 0.5);
    const lift = report.lift[0]?.cross_entropy;
    expect(lift?.high).toBeLessThan(0);
    expect(lift?.low).toBeLessThanOrEqual(lift?.mean ?? 0);
  });

  it("trains on the ids the engine evaluates for complete_code's prompt of the same code, then the completion and EOS", async () => {
    const served = readFileSync(join(repo, ".mochi", "dataset", SERVED_FILES.train), "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind: string; group: string; completion: string; prompt: PromptInput });
    const ids = new Map(
      readFileSync(join(runDir(), "data", ID_FILES.train), "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { ids: number[]; prompt_tokens: number; sample: number })
        .map((line) => [line.sample, line]),
    );
    const catalog = readCatalogFile(join(repo, ".mochi", "catalog.json"));
    const engine = new LlamaEngine({ modelPath: gguf, gpu: "cpu", threads: 1, contextSize: 2048 }, { logger: silentLogger });
    let whole = 0;
    let halved = 0;
    let withContext = 0;
    try {
      for (const [index, sample] of served.entries()) {
        if (sample.kind !== "completion" && sample.kind !== "fim") continue;
        if (sample.prompt.kind !== "infill") throw new Error(`a ${sample.kind} sample served as ${sample.prompt.kind}`);
        // The same cursor, its prompt built again from the file itself, as complete_code builds it:
        // the repository context it adds by default (MOCHI_CONTEXT on, the tiny model's 2,048-token context as MOCHI_CONTEXT_SIZE),
        // the window halved until the prompt fits (here: the training's 640 tokens).
        const text = readFileSync(join(repo, sample.group), "utf8");
        const at = sample.prompt.prefix.length;
        expect(text.slice(at, at + sample.completion.length)).toBe(sample.completion);
        const prefix = text.slice(0, at);
        const suffix = text.slice(at + sample.completion.length);
        const language = languageOf(sample.group);
        const context = await completionContext(
          catalog,
          { prefix, language },
          { enabled: true, contextSize: 2048, countTokens: async (t) => (await engine.tokenize(t)).length },
        );
        const trainedOn = ids.get(index);
        // Left out: its answer alone is longer than the 640 tokens (the command says how many it left out).
        if (trainedOn === undefined) continue;
        // The answer's ids (checked below: the completion's text, then EOS) count toward the 640.
        const answer = (trainedOn?.ids.length ?? 0) - (trainedOn?.prompt_tokens ?? 0);
        let window = { prefixChars: PREFIX_CHARS, suffixChars: SUFFIX_CHARS };
        let prompt = completionPrompt({ prefix, suffix, context, language, ...window });
        while ((await engine.promptTokens(prompt)).length + answer > 640 && window.prefixChars > 200) {
          window = { prefixChars: Math.floor(window.prefixChars / 2), suffixChars: Math.floor(window.suffixChars / 2) };
          prompt = completionPrompt({ prefix, suffix, context, language, ...window });
        }
        if (context.length > 0) withContext += 1;
        if (window.prefixChars === PREFIX_CHARS) whole += 1;
        else halved += 1;
        const promptIds = await engine.promptTokens(prompt);
        expect(trainedOn?.prompt_tokens).toBe(promptIds.length);
        expect(trainedOn?.ids.slice(0, trainedOn.prompt_tokens)).toEqual(promptIds);
        // The answer read after its prompt (alone, a SentencePiece detokenizer drops a leading space).
        const answerIds = trainedOn?.ids.slice(trainedOn.prompt_tokens, -1) ?? [];
        const read = await engine.detokenize([...promptIds, ...answerIds]);
        expect(read.slice(read.length - sample.completion.length)).toBe(sample.completion);
        expect(trainedOn?.ids.at(-1)).toBe(await engine.eosToken());
        if (whole + halved >= 6 && withContext > 0) break;
      }
      // A byte-level vocabulary makes most fixture prompts longer than 640 tokens: some need a smaller window.
      expect(whole + halved).toBeGreaterThanOrEqual(3);
      expect(halved).toBeGreaterThan(0);
      expect(withContext).toBeGreaterThan(0);
      // And the engine evaluates those ids for that prompt: fill-in-the-middle, the same count.
      const generated = await engine.generate({
        prompt: completionPrompt({ prefix: "const a = ", suffix: ";\n" }),
        maxTokens: 1,
        temperature: 0,
      });
      expect(generated.mode).toBe("infill");
      expect(generated.tokensIn).toBe((await engine.promptTokens(completionPrompt({ prefix: "const a = ", suffix: ";\n" }))).length);
    } finally {
      await engine.dispose();
    }
  });
});

describe("mochi train: question samples", () => {
  beforeAll(async () => {
    expect((await mochi(["index", ".", "-q"])).code).toBe(0);
    expect((await mochi(["dataset", ".", "-q", "--valid-ratio", "0.2"])).code).toBe(0);
  }, 60_000);

  it("are the ids of domain_query's prompt for the same question: its catalog grounding and definitions in the Input", async () => {
    const served = readFileSync(join(repo, ".mochi", "dataset", SERVED_FILES.train), "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind: string; prompt: PromptInput });
    // The trainer's tokenizing step alone (no Python), with room for every question whole.
    const out = join(work, "question-ids");
    const catalog = readCatalogFile(join(repo, ".mochi", "catalog.json"));
    await writeIdFiles(
      gguf,
      join(repo, ".mochi", "dataset"),
      out,
      { catalog, enabled: true, contextSize: 2048, search: new CatalogSearch(createEmbedder()) },
      4096,
    );
    const ids = new Map(
      readFileSync(join(out, "data", ID_FILES.train), "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { ids: number[]; prompt_tokens: number; sample: number })
        .map((line) => [line.sample, line]),
    );
    const server = await connectMochi(
      { MOCHI_MODEL: gguf, MOCHI_ADAPTER: "none", MOCHI_CONTEXT_SIZE: "2048", MOCHI_DEADLINE_MS: "60000" },
      repo,
    );
    const engine = new LlamaEngine({ modelPath: gguf, gpu: "cpu", threads: 1, contextSize: 2048 }, { logger: silentLogger });
    let compared = 0;
    let grounded = 0;
    let withDefinitions = 0;
    try {
      for (const [index, sample] of served.entries()) {
        if (sample.prompt.kind !== "alpaca") continue;
        const { instruction, input = "" } = sample.prompt;
        const result = await server.connection.client.callTool({
          name: "domain_query",
          // The default max_tokens: the room the trainer leaves for the answer too.
          arguments: { instruction, input, response_level: "full" },
        });
        const full = result.structuredContent as { prompt_input: string; tokens_in: number; sources: string[]; context: unknown[] };
        const promptIds = await engine.promptTokens({
          kind: "alpaca",
          instruction,
          ...(full.prompt_input === "" ? {} : { input: full.prompt_input }),
        });
        expect(full.tokens_in).toBe(promptIds.length);
        const trainedOn = ids.get(index);
        expect(trainedOn?.ids.slice(0, trainedOn.prompt_tokens)).toEqual(promptIds);
        compared += 1;
        if (full.sources.length > 0) grounded += 1;
        if (full.context.length > 0) withDefinitions += 1;
        if (compared >= 4 && grounded > 0 && withDefinitions > 0) break;
      }
      expect(compared).toBeGreaterThanOrEqual(4);
      expect(grounded).toBeGreaterThan(0);
      expect(withDefinitions).toBeGreaterThan(0);
    } finally {
      await engine.dispose();
      await server.close();
    }
  }, 120_000);
});

describe("mochi train errors", () => {
  beforeAll(async () => {
    expect((await mochi(["index", ".", "-q"])).code).toBe(0);
    expect((await mochi(["dataset", ".", "-q"])).code).toBe(0);
  }, 60_000);

  it("a missing Python is one coded line naming what to install (exit 1)", async () => {
    const run = await mochi(["train", "--base-gguf", gguf, "--base", hf], { PYTHON: "/nonexistent/python3" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^mochi: NOT_READY: Python \(\/nonexistent\/python3\) could not be started/);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("bad usage is one coded line and exit 2", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["train", "--base", hf], /--base-gguf/],
      [["train", "--base-gguf", join(work, "none.gguf"), "--base", hf], /^mochi: NOT_FOUND: .*none\.gguf does not exist/],
      [["train", "--base-gguf", gguf, "--base", work], /^mochi: NOT_FOUND: .* is not a Hugging Face model directory/],
      [["train", "--base-gguf", gguf, "--base", hf, "--rank", "0"], /^mochi: INVALID_INPUT: --rank must be an integer ≥ 1, got '0'/],
      [["train", "--base-gguf", gguf, "--base", hf, "--backend", "tpu"], /^mochi: INVALID_INPUT: --backend must be peft or mlx/],
      [["train", "--base-gguf", gguf, "--base", hf, "--dataset", work], /^mochi: NOT_FOUND: no train\.served\.jsonl in /],
    ];
    for (const [args, message] of cases) {
      const run = await mochi(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toMatch(message);
    }
  });
});
