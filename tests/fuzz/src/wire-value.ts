/**
 * Fuzz arguments may hold values too big to keep in a regression file or too deep for
 * `JSON.stringify` (Node 20 overflows its stack near 5,000 levels). Such a value is a `Big`: a
 * recipe — repeat a unit, fill an array, nest a leaf — that serialises to `{"$fuzz": …}` in case
 * files, expands to the real value for the SDK client, and is written straight to JSON text
 * (no recursion) when it is too deep for the client to serialise.
 */

export type BigSpec =
  | { $fuzz: "repeat"; unit: string; count: number }
  | { $fuzz: "fill"; item: unknown; count: number }
  | { $fuzz: "nest"; kind: "array" | "object"; depth: number; leaf: unknown };

/** Deeper than this, a nest is sent as raw JSON text: `JSON.stringify` would overflow. */
export const MAX_CLIENT_DEPTH = 2_000;

export class Big {
  constructor(readonly spec: BigSpec) {}

  /** Case files keep the recipe, not the megabytes. */
  toJSON(): BigSpec {
    return this.spec;
  }
}

export const repeat = (unit: string, count: number) => new Big({ $fuzz: "repeat", unit, count });
export const fill = (item: unknown, count: number) => new Big({ $fuzz: "fill", item, count });
export const nest = (kind: "array" | "object", depth: number, leaf: unknown = null) => new Big({ $fuzz: "nest", kind, depth, leaf });

function isBigSpec(value: unknown): value is BigSpec {
  if (typeof value !== "object" || value === null || !("$fuzz" in value)) return false;
  const kind = (value as { $fuzz: unknown }).$fuzz;
  return kind === "repeat" || kind === "fill" || kind === "nest";
}

/** JSON.parse reviver for case files: `{"$fuzz": …}` objects become `Big` again. */
export function reviveBig(_key: string, value: unknown): unknown {
  return isBigSpec(value) ? new Big(value) : value;
}

/** Copies plain structure, keeping `Big`s and own `__proto__` keys as they are. */
export function cloneValue<T>(value: T): T {
  if (value instanceof Big || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => cloneValue(item)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) defineOwn(out, key, cloneValue(item));
  return out as T;
}

/** Sets a key as an own, enumerable property — `__proto__` included (plain assignment would not). */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Whether the value holds a nest too deep for the SDK client's `JSON.stringify`. */
export function needsRawJson(value: unknown): boolean {
  if (value instanceof Big) {
    const spec = value.spec;
    if (spec.$fuzz === "nest") return spec.depth > MAX_CLIENT_DEPTH || needsRawJson(spec.leaf);
    if (spec.$fuzz === "fill") return needsRawJson(spec.item);
    return false;
  }
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some((item) => needsRawJson(item));
}

/** The value's size as UTF-8 JSON text, in bytes (close to exact; numbers counted at 24). */
export function wireBytes(value: unknown): number {
  if (value instanceof Big) {
    const spec = value.spec;
    if (spec.$fuzz === "repeat") return 2 + (wireBytes(spec.unit) - 2) * spec.count;
    if (spec.$fuzz === "fill") return 2 + (wireBytes(spec.item) + 1) * spec.count;
    return spec.depth * 5 + wireBytes(spec.leaf);
  }
  if (typeof value === "string") return Buffer.byteLength(JSON.stringify(value));
  if (typeof value !== "object" || value === null) return 24;
  return 2 + Object.entries(value).reduce((sum, [key, item]) => sum + wireBytes(key) + 2 + wireBytes(item), 0);
}

/** The real value a recipe stands for (only for nests the client can serialise). */
export function materialize(value: unknown): unknown {
  if (value instanceof Big) {
    const spec = value.spec;
    if (spec.$fuzz === "repeat") return spec.unit.repeat(spec.count);
    if (spec.$fuzz === "fill") {
      const item = materialize(spec.item);
      return Array.from({ length: spec.count }, () => item);
    }
    let built = materialize(spec.leaf);
    for (let level = 0; level < spec.depth; level += 1) built = spec.kind === "array" ? [built] : { a: built };
    return built;
  }
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => materialize(item));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) defineOwn(out, key, materialize(item));
  return out;
}

/** JSON text of a value, recipes expanded textually (no recursion over a nest's depth). */
export function wireJson(value: unknown): string {
  if (value instanceof Big) {
    const spec = value.spec;
    if (spec.$fuzz === "repeat") return JSON.stringify(spec.unit.repeat(spec.count));
    if (spec.$fuzz === "fill") return `[${new Array<string>(spec.count).fill(wireJson(spec.item)).join(",")}]`;
    const open = spec.kind === "array" ? "[" : '{"a":';
    const close = spec.kind === "array" ? "]" : "}";
    return `${open.repeat(spec.depth)}${wireJson(spec.leaf)}${close.repeat(spec.depth)}`;
  }
  if (value === undefined) return "null";
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => wireJson(item)).join(",")}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${JSON.stringify(key)}:${wireJson(item)}`)
    .join(",")}}`;
}

/** A short, readable rendering of arguments for reports (recipes shown as recipes). */
export function describeValue(value: unknown, max = 300): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_key, item: unknown) =>
      typeof item === "string" && item.length > 80 ? `${item.slice(0, 80)}…(${item.length} chars)` : item,
    );
  } catch {
    text = "(unprintable)";
  }
  text ??= String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
