/**
 * Mutations of valid-looking arguments: a field gets a hostile value of its own kind (hostile
 * strings, edge numbers, oversized arrays, deep nesting) or of the wrong type, a required field
 * goes missing, an extra (or prototype-poisoning) key appears, the whole arguments stop being an
 * object, or several of these at once.
 */
import fc from "fast-check";
import { EXTRA_KEYS, VALUES_BY_TYPE, deepValue, hostileNumber, hostileString, oversizedArray, type PathSandbox } from "./hostile-values.js";
import { JSON_TYPES, childSchema, propertyNames, requiredKeys, resolveRef, typesOf, type JsonSchema } from "./json-schema.js";
import { Big, cloneValue, defineOwn, fill, repeat } from "./wire-value.js";

export interface MutationContext {
  root: JsonSchema;
  /** Property names whose values name files the tool may write: their paths stay in the sandbox. */
  writeFields: ReadonlySet<string>;
  sandbox: PathSandbox;
  /** Symlinks in the fixture that lead out of its root. */
  symlinkNames: readonly string[];
}

type Path = readonly (string | number)[];

interface Slot {
  path: Path;
  schema: JsonSchema;
  /** The property name the value sits under (an array item inherits its array's). */
  key: string | undefined;
}

const MAX_SLOT_DEPTH = 8;

function collectSlots(
  context: MutationContext,
  value: unknown,
  schema: JsonSchema,
  path: Path,
  key: string | undefined,
  out: Slot[],
): void {
  if (path.length > MAX_SLOT_DEPTH || value instanceof Big || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const slot = { path: [...path, index], schema: childSchema(context.root, schema, index), key };
      out.push(slot);
      collectSlots(context, item, slot.schema, slot.path, key, out);
    });
    return;
  }
  const present = Object.keys(value);
  for (const name of new Set([...present, ...propertyNames(context.root, schema)])) {
    const slot = { path: [...path, name], schema: childSchema(context.root, schema, name), key: name };
    out.push(slot);
    if (present.includes(name)) collectSlots(context, (value as Record<string, unknown>)[name], slot.schema, slot.path, name, out);
  }
}

function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = cloneValue(value);
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent)) parent[last as number] = replacement;
  else defineOwn(parent as Record<string, unknown>, String(last), replacement);
  return copy;
}

function deleteAt(value: unknown, path: Path): unknown {
  const copy = cloneValue(value);
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  delete parent[path[path.length - 1] as string | number];
  return copy;
}

function valueAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const step of path) current = (current as Record<string | number, unknown> | undefined)?.[step];
  return current;
}

/** A hostile value for one field, shaped by the field's schema. */
export function hostileFor(context: MutationContext, schema: JsonSchema, key: string | undefined, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolveRef(context.root, schema);
  const types = typesOf(context.root, resolved);
  const any = types.length === 0;
  const has = (type: string) => any || types.includes(type);
  const wrong = any ? [] : JSON_TYPES.filter((type) => !types.includes(type) && !(type === "integer" && types.includes("number")));
  const options: fc.WeightedArbitrary<unknown>[] = [
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: deepValue() },
  ];
  if (wrong.length > 0)
    options.push({ weight: 4, arbitrary: fc.constantFrom(...wrong).chain((type) => VALUES_BY_TYPE[type] ?? fc.constant(null)) });
  const sandbox = key !== undefined && context.writeFields.has(key) ? context.sandbox : undefined;
  const strings = hostileString({
    minLength: resolved.minLength,
    maxLength: resolved.maxLength,
    sandbox,
    symlinkNames: context.symlinkNames,
  });
  options.push({ weight: has("string") ? 10 : 2, arbitrary: strings });
  if (has("number") || has("integer")) {
    options.push({
      weight: 6,
      arbitrary: hostileNumber({ minimum: resolved.minimum, maximum: resolved.maximum, integer: !has("number") }),
    });
  }
  if (has("array")) {
    const items = resolved.items ?? {};
    const hostileItems = depth < 2 ? fc.array(hostileFor(context, items, key, depth + 1), { minLength: 1, maxLength: 3 }) : fc.constant([]);
    const smallStrings = hostileString({ small: true, maxLength: resolved.maxLength, sandbox, symlinkNames: context.symlinkNames });
    options.push({ weight: 5, arbitrary: fc.oneof(oversizedArray(smallStrings, resolved.maxItems), fc.constant([]), hostileItems) });
  }
  if (has("object")) {
    options.push({ weight: 3, arbitrary: fc.oneof(fc.constant({}), extraKeyObject(context)) });
  }
  return fc.oneof(...options);
}

function extraKeyObject(context: MutationContext): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(extraKey(), extraValue(context)).map(([key, value]) => {
    const out: Record<string, unknown> = {};
    defineOwn(out, key, value);
    return out;
  });
}

function extraKey(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...EXTRA_KEYS) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  );
}

function extraValue(context: MutationContext): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(1, "x", null, true, { polluted: true }, ["a"], "minimal", "verbose"),
    hostileString({ sandbox: context.sandbox, symlinkNames: context.symlinkNames }),
  );
}

type Mutation = (value: unknown) => fc.Arbitrary<unknown>;

function replaceField(context: MutationContext): Mutation {
  return (value) => {
    const slots: Slot[] = [];
    collectSlots(context, value, context.root, [], undefined, slots);
    if (slots.length === 0) return wholeArguments(context)(value);
    return fc.nat({ max: slots.length - 1 }).chain((index) => {
      const slot = slots[index] as Slot;
      return hostileFor(context, slot.schema, slot.key).map((hostile) => setAt(value, slot.path, hostile));
    });
  };
}

function dropRequired(context: MutationContext): Mutation {
  return (value) => {
    const objects: Slot[] = [{ path: [], schema: context.root, key: undefined }];
    collectSlots(context, value, context.root, [], undefined, objects);
    const targets: Path[] = [];
    for (const slot of objects) {
      const here = valueAt(value, slot.path);
      if (typeof here !== "object" || here === null || Array.isArray(here) || here instanceof Big) continue;
      for (const key of requiredKeys(context.root, slot.schema)) if (key in here) targets.push([...slot.path, key]);
    }
    if (targets.length === 0) return addExtraKey(context)(value);
    return fc.constantFrom(...targets).map((path) => deleteAt(value, path));
  };
}

function addExtraKey(context: MutationContext): Mutation {
  return (value) => {
    const slots: Slot[] = [{ path: [], schema: context.root, key: undefined }];
    collectSlots(context, value, context.root, [], undefined, slots);
    const objects = slots.filter((slot) => {
      const here = valueAt(value, slot.path);
      return typeof here === "object" && here !== null && !Array.isArray(here) && !(here instanceof Big);
    });
    if (objects.length === 0) return fc.constant(value);
    return fc.tuple(fc.constantFrom(...objects), extraKey(), extraValue(context)).map(([slot, key, extra]) => {
      const copy = cloneValue(value);
      const target = slot.path.length === 0 ? copy : valueAt(copy, slot.path);
      defineOwn(target as Record<string, unknown>, key, extra);
      return copy;
    });
  };
}

function wholeArguments(context: MutationContext): Mutation {
  return () =>
    fc.oneof(
      fc.constantFrom<unknown>(null, [], "arguments", 42, true, 0, [{}]),
      deepValue(),
      fc.constant(fill({}, 100_000)),
      fc.constant(repeat("a", 1_048_576)),
      extraKeyObject(context),
    );
}

/** Valid-looking arguments, mutated once or several times. */
export function mutatedArguments(context: MutationContext, valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const single: fc.WeightedArbitrary<Mutation>[] = [
    { weight: 10, arbitrary: fc.constant(replaceField(context)) },
    { weight: 3, arbitrary: fc.constant(dropRequired(context)) },
    { weight: 3, arbitrary: fc.constant(addExtraKey(context)) },
  ];
  const chooseSingle = fc.oneof(...single);
  return valid.chain((base) =>
    fc.oneof(
      { weight: 12, arbitrary: chooseSingle.chain((mutate) => mutate(base)) },
      { weight: 1, arbitrary: wholeArguments(context)(base) },
      {
        weight: 3,
        arbitrary: fc
          .array(chooseSingle, { minLength: 2, maxLength: 4 })
          .chain((mutations) =>
            mutations.reduce<fc.Arbitrary<unknown>>((acc, mutate) => acc.chain((value) => mutate(value)), fc.constant(base)),
          ),
      },
    ),
  );
}
