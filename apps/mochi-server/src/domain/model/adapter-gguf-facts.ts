import { LORA_ALPHA_KEY, metadataNumber, metadataString, readGgufHeader } from "@local-mcp/core/inference";

/** Alpha, rank, architecture and name from a GGUF LoRA's header (no tensor data is read); null when unreadable. */
export async function adapterGgufFacts(path: string): Promise<Record<string, unknown> | null> {
  try {
    const header = await readGgufHeader(path);
    const loraA = header.tensors.find((t) => t.name.endsWith(".lora_a"));
    return {
      name: metadataString(header, "general.name") ?? null,
      architecture: metadataString(header, "general.architecture") ?? null,
      alpha: metadataNumber(header, LORA_ALPHA_KEY) ?? null,
      rank: loraA?.dims[1] ?? null,
      tensors: header.tensors.length,
    };
  } catch {
    return null;
  }
}
