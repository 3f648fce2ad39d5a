import { describeValueType } from "./metadata-values.js";
import type { GgufProblem } from "./problems.js";
import { GgufValueType, ggufValueTypeName } from "./types.js";
import type { GgufHeader } from "./types.js";

/**
 * Typed checks of single metadata keys, each adding a problem in words that name the key, what
 * llama.cpp needs and what the file holds. They return the value when it is usable.
 */
export class MetadataChecker {
  readonly problems: GgufProblem[] = [];

  constructor(private readonly header: GgufHeader) {}

  report(problem: string): void {
    this.problems.push({ file: this.header.file, problem });
  }

  has(key: string): boolean {
    return this.header.metadata.has(key);
  }

  /** A STRING value; llama.cpp aborts when it reads some keys as strings and they are not. */
  string(key: string, required: boolean, why = ""): string | undefined {
    const entry = this.header.metadata.get(key);
    if (entry === undefined) {
      if (required) this.report(`missing ${key}${why}`);
      return undefined;
    }
    if (entry.type !== GgufValueType.STRING) {
      this.report(`${key} is stored as ${describeValueType(entry)}; it must be a STRING`);
      return undefined;
    }
    return entry.value as string;
  }

  /** A UINT32 scalar (llama.cpp's get_key checks the stored type exactly). */
  uint32(key: string, required: boolean, options: { positive?: boolean } = {}): number | undefined {
    const entry = this.header.metadata.get(key);
    if (entry === undefined) {
      if (required) this.report(`missing ${key} (llama.cpp cannot load the model without it)`);
      return undefined;
    }
    if (entry.type !== GgufValueType.UINT32) {
      this.report(`${key} is stored as ${describeValueType(entry)}; llama.cpp requires UINT32`);
      return undefined;
    }
    const value = entry.value as number;
    if (options.positive === true && value === 0) {
      this.report(`${key} is 0; it must be positive`);
      return undefined;
    }
    return value;
  }

  /** A FLOAT32 scalar. */
  float32(key: string, required: boolean, options: { positive?: boolean } = {}): number | undefined {
    const entry = this.header.metadata.get(key);
    if (entry === undefined) {
      if (required) this.report(`missing ${key} (llama.cpp cannot load the model without it)`);
      return undefined;
    }
    if (entry.type !== GgufValueType.FLOAT32) {
      this.report(`${key} is stored as ${describeValueType(entry)}; llama.cpp requires FLOAT32`);
      return undefined;
    }
    const value = entry.value as number;
    if (!Number.isFinite(value) || (options.positive === true && value <= 0)) {
      this.report(`${key} is ${value}; it must be a positive finite number`);
      return undefined;
    }
    return value;
  }

  /**
   * A per-layer hyperparameter: a UINT32 scalar, or an INT32/UINT32 array with one value per
   * layer. Returns the values per layer (the scalar repeated).
   */
  perLayer(key: string, layers: number | undefined, required: boolean, options: { positive?: boolean } = {}): number[] | undefined {
    const entry = this.header.metadata.get(key);
    if (entry === undefined) {
      if (required) this.report(`missing ${key} (llama.cpp cannot load the model without it)`);
      return undefined;
    }
    let values: number[];
    if (entry.type === GgufValueType.ARRAY) {
      if (entry.itemType !== GgufValueType.UINT32 && entry.itemType !== GgufValueType.INT32) {
        this.report(`${key} is stored as ${describeValueType(entry)}; llama.cpp requires UINT32 or an INT32/UINT32 array`);
        return undefined;
      }
      values = entry.value.map((v) => Number(v));
      if (layers !== undefined && values.length !== layers) {
        this.report(`${key} has ${values.length} values but the model has ${layers} layers`);
        return undefined;
      }
    } else if (entry.type === GgufValueType.UINT32) {
      values = Array.from({ length: layers ?? 1 }, () => entry.value as number);
    } else {
      this.report(`${key} is stored as ${ggufValueTypeName(entry.type)}; llama.cpp requires UINT32 or an INT32/UINT32 array`);
      return undefined;
    }
    if (options.positive === true && values.some((v) => v <= 0)) {
      this.report(`${key} must be positive for every layer`);
      return undefined;
    }
    return values;
  }

  /** An array whose items have one of `itemTypes`; returns its length. */
  array(key: string, itemTypes: readonly GgufValueType[], required: boolean, why = ""): number | undefined {
    const entry = this.header.metadata.get(key);
    if (entry === undefined) {
      if (required) this.report(`missing ${key}${why}`);
      return undefined;
    }
    if (entry.type !== GgufValueType.ARRAY || !itemTypes.includes(entry.itemType)) {
      const wanted = itemTypes.map((t) => `ARRAY[${ggufValueTypeName(t)}]`).join(" or ");
      this.report(`${key} is stored as ${describeValueType(entry)}; llama.cpp requires ${wanted}`);
      return undefined;
    }
    return entry.value.length;
  }
}
