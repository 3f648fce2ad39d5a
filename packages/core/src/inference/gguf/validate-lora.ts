import { MetadataChecker } from "./metadata-checks.js";
import { describeValueType, metadataString } from "./metadata-values.js";
import type { GgufProblem } from "./problems.js";
import { checkTensorLayout } from "./tensor-layout.js";
import { GgufValueType } from "./types.js";
import type { GgufHeader, GgufTensorInfo } from "./types.js";

export const LORA_ALPHA_KEY = "adapter.lora.alpha";

/**
 * Checks a GGUF LoRA adapter against the model it will be applied to, mirroring what llama.cpp's
 * adapter loader (llama-adapter.cpp) checks or assumes:
 * - `general.type` = "adapter", `adapter.type` = "lora", `general.architecture` = the model's,
 *   each stored as a STRING (a non-string one aborts the process);
 * - `adapter.lora.alpha` present and FLOAT32 (another type aborts the process; a missing one
 *   would silently apply the adapter unscaled, so it is refused too);
 * - tensors named `<base>.lora_a` / `<base>.lora_b` (or `*_norm.weight`, which llama.cpp skips),
 *   each pair complete, its base tensor present in the model;
 * - shapes innermost-first: lora_a is [in, r], lora_b is [r, out] for a base [in, out], and the
 *   two ranks agree. `token_embd.weight` [n_embd, n_vocab] is the exception: the embedding is a
 *   row lookup, so its pair is lora_a [r, n_vocab] (rows looked up by token) and lora_b [r, n_embd];
 * - the tensor data lies inside the file.
 * Returns every problem found, each naming the file it is in.
 */
export function validateLoraAdapter(adapter: GgufHeader, model: GgufHeader): GgufProblem[] {
  const check = new MetadataChecker(adapter);
  const generalType = check.string("general.type", true, ' (a LoRA adapter says general.type="adapter")');
  if (generalType !== undefined && generalType !== "adapter") {
    check.report(`general.type is "${generalType}", not "adapter": this is not an adapter`);
  }
  const adapterType = check.string("adapter.type", true, ' (a LoRA adapter says adapter.type="lora")');
  if (adapterType !== undefined && adapterType !== "lora") check.report(`adapter.type is "${adapterType}", not "lora"`);

  const architecture = check.string("general.architecture", true);
  const modelArchitecture = metadataString(model, "general.architecture");
  if (architecture !== undefined && modelArchitecture !== undefined && architecture !== modelArchitecture) {
    check.report(`the adapter is for architecture "${architecture}" but the model ${model.file} is "${modelArchitecture}"`);
  }

  const alpha = adapter.metadata.get(LORA_ALPHA_KEY);
  if (alpha === undefined) {
    check.report(`missing ${LORA_ALPHA_KEY} (without it llama.cpp applies the adapter unscaled, ignoring alpha/r)`);
  } else if (alpha.type !== GgufValueType.FLOAT32) {
    check.report(`${LORA_ALPHA_KEY} is stored as ${describeValueType(alpha)}; llama.cpp requires FLOAT32 and aborts the process otherwise`);
  } else if (!Number.isFinite(alpha.value as number)) {
    check.report(`${LORA_ALPHA_KEY} is ${String(alpha.value)}; it must be finite`);
  }
  if (check.has("adapter.alora.invocation_tokens")) check.array("adapter.alora.invocation_tokens", [GgufValueType.UINT32], false);

  const problems = [...check.problems];
  const report = (problem: string) => problems.push({ file: adapter.file, problem });
  const pairs = pairTensors(adapter, report);
  const baseTensors = new Map(model.tensors.map((t) => [t.name, t] as const));
  if (pairs.size === 0 && problems.length === 0) report("the adapter has no lora_a/lora_b tensors");
  for (const [base, pair] of pairs) {
    if (pair.a === undefined || pair.b === undefined) {
      report(`LoRA tensor pair for "${base}" is missing its ${pair.a === undefined ? "lora_a" : "lora_b"}`);
      continue;
    }
    const target = baseTensors.get(base);
    if (target === undefined) {
      const tied = base === "output.weight" && baseTensors.has("token_embd.weight");
      report(`"${base}" does not exist in the model ${model.file}${tied ? " (it ties its output to token_embd)" : " (wrong base model?)"}`);
      continue;
    }
    const shapeProblem = checkPairShape(base, pair.a, pair.b, target);
    if (shapeProblem !== undefined) report(shapeProblem);
  }
  return [...problems, ...checkTensorLayout(adapter)];
}

interface LoraPair {
  a?: GgufTensorInfo;
  b?: GgufTensorInfo;
}

function pairTensors(adapter: GgufHeader, report: (problem: string) => void): Map<string, LoraPair> {
  const pairs = new Map<string, LoraPair>();
  for (const tensor of adapter.tensors) {
    const match = /^(.*)\.lora_(a|b)$/.exec(tensor.name);
    if (match === null) {
      if (!tensor.name.endsWith("_norm.weight")) report(`tensor "${tensor.name}" is neither a .lora_a nor a .lora_b tensor`);
      continue;
    }
    const [, base = "", which] = match;
    const pair = pairs.get(base) ?? {};
    if (which === "a") pair.a = tensor;
    else pair.b = tensor;
    pairs.set(base, pair);
  }
  return pairs;
}

function checkPairShape(base: string, a: GgufTensorInfo, b: GgufTensorInfo, target: GgufTensorInfo): string | undefined {
  const shape = (t: GgufTensorInfo) => `[${t.dims.join(", ")}]`;
  if (a.dims.length !== 2 || b.dims.length !== 2 || target.dims.length !== 2) {
    return `"${base}": LoRA needs 2-D tensors; lora_a is ${shape(a)}, lora_b ${shape(b)}, the model's tensor ${shape(target)}`;
  }
  const [modelIn, modelOut] = target.dims as [number, number];
  if (base.endsWith("token_embd.weight")) {
    // token_embd [n_embd, n_vocab]: lora_a [r, n_vocab] (looked up by token), lora_b [r, n_embd].
    const [aRank, aVocab] = a.dims as [number, number];
    const [bRank, bEmbd] = b.dims as [number, number];
    if (modelIn !== bEmbd || modelOut !== aVocab) {
      return `"${base}": lora_a ${shape(a)} and lora_b ${shape(b)} do not fit the model's ${shape(target)} (wrong base model?)`;
    }
    if (aRank !== bRank) return `"${base}": lora_a has rank ${aRank} but lora_b has rank ${bRank}`;
    return undefined;
  }
  const [aIn, aRank] = a.dims as [number, number];
  const [bRank, bOut] = b.dims as [number, number];
  if (modelIn !== aIn || modelOut !== bOut) {
    return `"${base}": lora_a ${shape(a)} and lora_b ${shape(b)} do not fit the model's ${shape(target)}; expected lora_a [${modelIn}, r] and lora_b [r, ${modelOut}] (wrong base model?)`;
  }
  if (aRank !== bRank) return `"${base}": lora_a has rank ${aRank} but lora_b has rank ${bRank}`;
  return undefined;
}
