/** Alpha, rank, architecture and name from a GGUF LoRA's header (no tensor data is read); null when unreadable. */
export async function adapterGgufFacts(path: string): Promise<Record<string, unknown> | null> {
  try {
    // Loaded on the first read of mochi://stats with an adapter: the GGUF reader is not start-up work,
    // and only it (core's gguf subpath), not the inference engine.
    const { LORA_ALPHA_KEY, metadataNumber, metadataString, readGgufHeader } = await import("@local-mcp/core/gguf");
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
