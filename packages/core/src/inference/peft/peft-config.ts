import { readFile } from "node:fs/promises";
import { z } from "zod";
import { PeftConversionError } from "./conversion-error.js";

/**
 * The parts of PEFT's `adapter_config.json` (LoraConfig) the converter reads. Unknown keys are
 * allowed: PEFT adds options release by release, and those that change the math are checked by
 * name in convert-peft.ts.
 */
export const PeftLoraConfigSchema = z.looseObject({
  peft_type: z.string().default("LORA"),
  r: z.number().int().positive(),
  lora_alpha: z.number(),
  target_modules: z.union([z.array(z.string()), z.string()]).nullish(),
  use_rslora: z.boolean().default(false),
  use_dora: z.boolean().default(false),
  bias: z.string().default("none"),
  lora_bias: z.boolean().default(false),
  modules_to_save: z.array(z.string()).nullish(),
  rank_pattern: z.record(z.string(), z.number()).nullish(),
  alpha_pattern: z.record(z.string(), z.number()).nullish(),
  fan_in_fan_out: z.boolean().default(false),
  trainable_token_indices: z.unknown().optional(),
  target_parameters: z.array(z.string()).nullish(),
  base_model_name_or_path: z.string().nullish(),
});
export type PeftLoraConfig = z.infer<typeof PeftLoraConfigSchema>;

export async function readPeftConfig(path: string): Promise<PeftLoraConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new PeftConversionError("invalid", `${path}: cannot read adapter_config.json (is this a PEFT adapter directory?)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PeftConversionError("invalid", `${path}: not valid JSON`);
  }
  const parsed = PeftLoraConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new PeftConversionError("invalid", `${path}: not a LoRA adapter config (${issues})`);
  }
  return parsed.data;
}

/**
 * The alpha PEFT uses for one module: the first `alpha_pattern` key that matches the end of the
 * module name (PEFT treats keys as regular expressions matched against `.*\.<key>$`), else
 * `lora_alpha`.
 */
export function moduleAlpha(config: PeftLoraConfig, moduleName: string): number {
  for (const [pattern, alpha] of Object.entries(config.alpha_pattern ?? {})) {
    if (patternMatches(pattern, moduleName)) return alpha;
  }
  return config.lora_alpha;
}

function patternMatches(pattern: string, moduleName: string): boolean {
  if (moduleName === pattern || moduleName.endsWith(`.${pattern}`)) return true;
  try {
    return new RegExp(`^(?:.*\\.)?(?:${pattern})$`).test(moduleName);
  } catch {
    return false;
  }
}
