import { createLogger } from "../logger.js";

export interface RunModelOptions {
  model: string;
  loras: string[];
  gpu?: string;
  threads?: number;
  context?: number;
  maxTokens?: number;
  mode: "chat" | "complete" | "alpaca" | "infill";
  prompt: string;
  suffix?: string;
  json: boolean;
}

/** `<file>` or `<file>:<scale>` → an adapter entry. */
export function parseLora(spec: string): { path: string; scale: number } {
  const match = /^(.*):(\d+(?:\.\d+)?)$/.exec(spec);
  if (!match?.[1]) return { path: spec, scale: 1 };
  return { path: match[1], scale: Number(match[2]) };
}

/** Loads a GGUF (with LoRA adapters) through LlamaEngine and runs one prompt; progress on stderr. */
export async function runModel(options: RunModelOptions): Promise<string> {
  const { LlamaEngine } = await import("../inference/llama-engine.js");
  const engine = new LlamaEngine(
    {
      modelPath: options.model,
      adapters: options.loras.map(parseLora),
      gpu: (options.gpu ?? "auto") as "auto",
      ...(options.threads === undefined ? {} : { threads: options.threads }),
      ...(options.context === undefined ? {} : { contextSize: options.context }),
      deadlineMs: 600_000,
    },
    { logger: createLogger({ name: "local-mcp", level: "warn" }) },
  );
  try {
    let shown = -1;
    await engine.load({
      onProgress: (fraction) => {
        const percent = Math.floor(fraction * 10) * 10;
        if (percent > shown) {
          shown = percent;
          process.stderr.write(`loading ${options.model}: ${percent}%\n`);
        }
      },
    });
    const sampling = options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens };
    const result =
      options.mode === "chat"
        ? await engine.chat([{ role: "user", content: options.prompt }], sampling)
        : options.mode === "alpaca"
          ? await engine.alpaca(options.prompt, undefined, sampling)
          : options.mode === "infill"
            ? await engine.infill(options.prompt, options.suffix ?? "", sampling)
            : await engine.complete(options.prompt, sampling);
    if (options.json) return `${JSON.stringify(result, null, 2)}\n`;
    const tokensPerSecond = result.tokensOut / (result.wallMs / 1000);
    process.stderr.write(
      `[${result.mode}] ${result.tokensIn} tokens in, ${result.tokensOut} out, ${result.wallMs.toFixed(0)} ms ` +
        `(${tokensPerSecond.toFixed(1)} tokens/s), confidence ${result.confidence.toFixed(3)}, stop: ${result.stopReason}\n`,
    );
    return `${result.text}\n`;
  } finally {
    await engine.dispose();
  }
}
