/**
 * The tiny random-weights GGUF models of core/testing (`writeTinyLlamaGguf`, `writeTinyLoraGguf`),
 * written into a target's fixtures so its model tools run real llama.cpp inference
 * (node-llama-cpp, CPU, one thread): a 64-wide, 2-layer llama with a byte-level vocabulary, whose
 * answers are noise but come at well under a millisecond a token — fast enough for every fuzzed
 * input that passes validation to reach generation.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeTinyLlamaGguf, writeTinyLoraGguf } from "@local-mcp/core/testing";

/** Writes dir/model/tiny.gguf (tiny-fim.gguf with fill-in-the-middle tokens); `contextLength` is its trained context. */
export async function writeTinyModel(dir: string, options: { fim: boolean; contextLength: number }): Promise<string> {
  await mkdir(join(dir, "model"), { recursive: true });
  const path = join(dir, "model", options.fim ? "tiny-fim.gguf" : "tiny.gguf");
  await writeTinyLlamaGguf(path, { fim: options.fim, contextLength: options.contextLength });
  return path;
}

/** Writes dir/model/tiny-lora.gguf, a LoRA adapter that fits the tiny model (mochi needs one). */
export async function writeTinyLora(dir: string): Promise<string> {
  await mkdir(join(dir, "model"), { recursive: true });
  const path = join(dir, "model", "tiny-lora.gguf");
  await writeTinyLoraGguf(path);
  return path;
}
