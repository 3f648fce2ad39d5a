import { createHash } from "node:crypto";
import { compareCodePoints } from "../files/repo-walker.js";
import type { DatasetSample } from "./alpaca-record.js";

export interface DatasetSplit {
  train: DatasetSample[];
  valid: DatasetSample[];
}

/**
 * A deterministic, seeded train/valid split by group (a source file, or one catalog entry), so the
 * 30/50/70% completions of one chunk never straddle the split. Groups are ordered by
 * SHA-256(`seed:group`) and taken into `valid` until it holds at least `validRatio` of the records;
 * with two or more groups, both sides get at least one. Records keep their order inside each side.
 */
export function splitDataset(samples: readonly DatasetSample[], seed: number, validRatio: number): DatasetSplit {
  const sizes = new Map<string, number>();
  for (const sample of samples) sizes.set(sample.group, (sizes.get(sample.group) ?? 0) + 1);
  const order = [...sizes.keys()]
    .map((group) => ({ group, key: createHash("sha256").update(`${seed}:${group}`).digest("hex") }))
    .sort((a, b) => compareCodePoints(a.key, b.key));
  const valid = new Set<string>();
  let validCount = 0;
  const target = validRatio * samples.length;
  for (const { group } of order) {
    if (validRatio <= 0 || valid.size >= order.length - 1) break;
    if (validCount >= target && valid.size > 0) break;
    valid.add(group);
    validCount += sizes.get(group) ?? 0;
  }
  return {
    train: samples.filter((s) => !valid.has(s.group)),
    valid: samples.filter((s) => valid.has(s.group)),
  };
}
