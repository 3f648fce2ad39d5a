import { GgufFormatError } from "./errors.js";
import { throwIfProblems } from "./problems.js";
import { readGgufHeader } from "./reader.js";
import type { GgufHeader } from "./types.js";
import { validateLoraAdapter } from "./validate-lora.js";
import { validateModelHeader } from "./validate-model.js";

/**
 * Reads and validates a model file before it goes to llama.cpp. An unreadable or invalid file
 * throws `NOT_READY` naming the file and every problem (never a process abort later).
 */
export async function readLoadableModelHeader(path: string): Promise<GgufHeader> {
  const header = await readHeaderOrNotReady(path);
  throwIfProblems(validateModelHeader(header));
  return header;
}

/**
 * Reads a LoRA adapter file and checks it against the model header it will be applied to;
 * throws `NOT_READY` naming the adapter file and the problem when it does not fit.
 */
export async function readLoadableLoraHeader(path: string, model: GgufHeader): Promise<GgufHeader> {
  const header = await readHeaderOrNotReady(path);
  throwIfProblems(validateLoraAdapter(header, model));
  return header;
}

async function readHeaderOrNotReady(path: string): Promise<GgufHeader> {
  try {
    return await readGgufHeader(path);
  } catch (error) {
    if (error instanceof GgufFormatError) throwIfProblems([{ file: error.file, problem: error.problem }]);
    throw error;
  }
}
