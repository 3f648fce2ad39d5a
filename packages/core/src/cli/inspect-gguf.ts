import { GgufFormatError } from "../inference/gguf/errors.js";
import { estimateModelMemory } from "../inference/gguf/memory-estimate.js";
import { ggufArchitecture, metadataString } from "../inference/gguf/metadata-values.js";
import type { GgufProblem } from "../inference/gguf/problems.js";
import { readGgufHeader } from "../inference/gguf/reader.js";
import { validateLoraAdapter } from "../inference/gguf/validate-lora.js";
import { validateModelHeader } from "../inference/gguf/validate-model.js";
import { formatBytes } from "../guards/memory.js";

export interface GgufInspection {
  file: string;
  kind: "model" | "adapter" | "unreadable";
  architecture?: string;
  name?: string;
  tensors?: number;
  metadataKeys?: number;
  memory?: { contextSize: number; weightsBytes: number; kvCacheBytes: number; computeBytes: number; totalBytes: number };
  problems: GgufProblem[];
}

/** What the engine's preflight would say about a file, for people. */
export async function inspectGguf(file: string, options: { base?: string; contextSize: number }): Promise<GgufInspection> {
  let header;
  try {
    header = await readGgufHeader(file);
  } catch (error) {
    if (error instanceof GgufFormatError) return { file, kind: "unreadable", problems: [{ file: error.file, problem: error.problem }] };
    throw error;
  }
  const isAdapter = metadataString(header, "general.type") === "adapter";
  const common = {
    file,
    architecture: ggufArchitecture(header),
    name: metadataString(header, "general.name"),
    tensors: header.tensors.length,
    metadataKeys: header.metadata.size,
  };
  if (isAdapter) {
    const problems = options.base ? validateLoraAdapter(header, await readGgufHeader(options.base)) : [];
    return { ...common, kind: "adapter", problems };
  }
  const problems = validateModelHeader(header);
  const memory = problems.length === 0 ? estimateModelMemory(header, { contextSize: options.contextSize }) : undefined;
  return {
    ...common,
    kind: "model",
    ...(memory
      ? {
          memory: {
            contextSize: options.contextSize,
            weightsBytes: memory.weightsBytes,
            kvCacheBytes: memory.kvCacheBytes,
            computeBytes: memory.computeBytes,
            totalBytes: memory.totalBytes,
          },
        }
      : {}),
    problems,
  };
}

export function renderInspection(i: GgufInspection): string {
  const lines = [`${i.file}: ${i.kind}${i.architecture ? ` (${i.architecture})` : ""}${i.name ? ` "${i.name}"` : ""}`];
  if (i.tensors !== undefined) lines.push(`  ${i.tensors} tensors, ${i.metadataKeys} metadata keys`);
  if (i.memory) {
    lines.push(
      `  memory at context ${i.memory.contextSize}: ${formatBytes(i.memory.totalBytes)} ` +
        `(weights ${formatBytes(i.memory.weightsBytes)}, KV cache ${formatBytes(i.memory.kvCacheBytes)}, compute ${formatBytes(i.memory.computeBytes)})`,
    );
  }
  lines.push(i.problems.length === 0 ? "  no problems found" : `  ${i.problems.length} problem(s):`);
  for (const p of i.problems) lines.push(`  - ${p.problem}`);
  return `${lines.join("\n")}\n`;
}
