#!/usr/bin/env node
// `local-mcp`: the core's command line — convert a PEFT LoRA adapter to GGUF, and inspect a GGUF
// model or adapter (the checks the engine runs before loading). Output goes to stdout; errors to
// stderr with a non-zero exit status.
import { parseArgs } from "node:util";
import { ToolError } from "../errors.js";
import { createLogger } from "../logger.js";
import { inspectGguf, renderInspection } from "./inspect-gguf.js";

const USAGE = `local-mcp — tools of the local-mcp core

Usage:
  local-mcp adapter convert <adapter-dir> --out <adapter.gguf> [--base <model.gguf>]
                            [--arch llama|qwen2] [--heads N --kv-heads N] [--type f32|f16]
      Convert a PEFT LoRA (adapter_config.json + adapter_model.safetensors) to a GGUF LoRA
      that llama.cpp loads. With --base, the result is checked against the base model
      (strongly advised); without it, give --arch (and --heads/--kv-heads for llama).
  local-mcp gguf inspect <file.gguf> [--base <model.gguf>] [--context N] [--json]
      Show a GGUF file's header, the problems the engine would refuse it for, and (for a
      model) the memory it needs at a context size. With --base, check an adapter against it.
  local-mcp run --model <model.gguf> [--lora <adapter.gguf>[:scale]]... [--mode chat|complete|alpaca|infill]
                [--suffix TEXT] [--gpu auto|metal|cuda|vulkan|cpu] [--threads N] [--context N]
                [--max-tokens N] [--json] <prompt>
      Load a GGUF model with LoRA adapters (checked first, as the servers do) and run one
      prompt: the text goes to stdout, load progress and token/time figures to stderr.
  local-mcp --help

Exit status: 0 on success, 1 when the file is refused or the conversion fails, 2 on bad usage.
`;

function fail(message: string, code = 1): never {
  process.stderr.write(`local-mcp: ${message}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: "boolean", short: "h" },
      out: { type: "string", short: "o" },
      base: { type: "string" },
      arch: { type: "string" },
      heads: { type: "string" },
      "kv-heads": { type: "string" },
      type: { type: "string" },
      context: { type: "string" },
      json: { type: "boolean" },
      model: { type: "string" },
      lora: { type: "string", multiple: true },
      mode: { type: "string" },
      suffix: { type: "string" },
      gpu: { type: "string" },
      threads: { type: "string" },
      "max-tokens": { type: "string" },
    },
  });
  const [group, command, target] = positionals;
  if (values.help || !group) {
    process.stdout.write(USAGE);
    return;
  }
  if (group === "adapter" && command === "convert") {
    if (!target) fail("adapter convert needs the adapter directory", 2);
    if (!values.out) fail("adapter convert needs --out <adapter.gguf>", 2);
    const arch = values.arch;
    if (arch !== undefined && arch !== "llama" && arch !== "qwen2") fail(`--arch must be llama or qwen2, got '${arch}'`, 2);
    const type = values.type?.toUpperCase();
    if (type !== undefined && type !== "F32" && type !== "F16") fail(`--type must be f32 or f16, got '${values.type}'`, 2);
    const { convertPeftToGguf } = await import("../inference/peft/index.js");
    const result = await convertPeftToGguf({
      adapterDir: target,
      outPath: values.out,
      ...(values.base ? { baseModelPath: values.base } : {}),
      ...(arch ? { architecture: arch } : {}),
      ...(values.heads ? { headCount: Number(values.heads) } : {}),
      ...(values["kv-heads"] ? { headCountKv: Number(values["kv-heads"]) } : {}),
      ...(type ? { outputType: type } : {}),
      logger: createLogger({ name: "local-mcp" }),
    });
    process.stdout.write(
      `wrote ${result.outPath}: ${result.architecture} LoRA, rank ${result.rank}, alpha ${result.alpha}${result.rsLora ? " (rsLoRA: alpha·√r)" : ""}, ` +
        `${result.tensors.length} tensors${result.validated ? ", checked against the base model" : ""}\n`,
    );
    return;
  }
  if (group === "gguf" && command === "inspect") {
    if (!target) fail("gguf inspect needs a file", 2);
    const context = values.context === undefined ? 4096 : Number(values.context);
    if (!Number.isInteger(context) || context <= 0) fail(`--context must be a positive integer, got '${values.context}'`, 2);
    const inspection = await inspectGguf(target, { ...(values.base ? { base: values.base } : {}), contextSize: context });
    process.stdout.write(values.json ? `${JSON.stringify(inspection, null, 2)}\n` : renderInspection(inspection));
    if (inspection.problems.length > 0) process.exitCode = 1;
    return;
  }
  if (group === "run") {
    const prompt = positionals.slice(1).join(" ");
    if (!values.model) fail("run needs --model <model.gguf>", 2);
    if (!prompt) fail("run needs a prompt", 2);
    const mode = values.mode ?? "complete";
    if (!["chat", "complete", "alpaca", "infill"].includes(mode)) fail(`--mode must be chat, complete, alpaca or infill, got '${mode}'`, 2);
    const gpu = values.gpu ?? "auto";
    if (!["auto", "metal", "cuda", "vulkan", "cpu"].includes(gpu)) fail(`--gpu must be auto, metal, cuda, vulkan or cpu, got '${gpu}'`, 2);
    const number = (name: string, value: string | undefined) => {
      if (value === undefined) return undefined;
      const n = Number(value);
      if (!Number.isInteger(n) || n <= 0) fail(`--${name} must be a positive integer, got '${value}'`, 2);
      return n;
    };
    const { runModel } = await import("./run-model.js");
    process.stdout.write(
      await runModel({
        model: values.model,
        loras: values.lora ?? [],
        gpu,
        threads: number("threads", values.threads),
        context: number("context", values.context),
        maxTokens: number("max-tokens", values["max-tokens"]),
        mode: mode as "chat",
        prompt,
        ...(values.suffix === undefined ? {} : { suffix: values.suffix }),
        json: values.json ?? false,
      }),
    );
    return;
  }
  fail(`unknown command '${positionals.join(" ")}'. Run 'local-mcp --help'.`, 2);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ToolError) fail(`${error.code}: ${error.message}`);
  fail(error instanceof Error ? error.message : String(error));
});
