/**
 * One authoring edit as the CLI (cli/commands/add.ts and its siblings) and the catdoc_edit tool
 * ask for it: an operation on one kind and id, with the kind's fields. The fields are checked
 * here (INVALID_INPUT naming the field); a morphism's are the model's own schema's
 * (store/edit-authoring.ts), so a field the schema gains (composite) is accepted with it.
 */
import { z } from "zod";
import { CatDocInputError } from "../errors.js";

export const EDIT_OPS = ["add", "update", "remove", "rename", "map"] as const;
export const EDIT_KINDS = ["category", "object", "morphism", "functor", "nt"] as const;
export type EditOp = (typeof EDIT_OPS)[number];
export type EditKind = (typeof EDIT_KINDS)[number];

export interface EditRequest {
  op: EditOp;
  kind: EditKind;
  id: string;
  /** The kind's fields (add, update). */
  fields?: Record<string, unknown> | undefined;
  /** rename: the new id. */
  newId?: string | undefined;
  /** map, remove of a mapping entry: the source object or morphism (functor) or the object A (nt). */
  from?: string | undefined;
  /** map: the image (functor) or the component's morphism (nt); omitted for a functor's morphism, its only candidate. */
  to?: string | undefined;
  /** remove: also what refers to it. */
  cascade?: boolean | undefined;
}

const id = z.string().min(1);
const name = z.string().trim().min(1);
const metadata = z.record(z.string(), z.unknown());
const mapping = z.record(z.string(), id);
const mappingPatch = z.record(z.string(), id.nullable());

/** The fields each kind takes, to add it and to update it. */
const FIELDS: Record<Exclude<EditKind, "morphism">, { add: z.ZodObject; update: z.ZodObject }> = {
  category: { add: z.strictObject({ name }), update: z.strictObject({ name }) },
  object: {
    add: z.strictObject({ category: id, title: name, domain: name, content: z.string().optional(), metadata: metadata.optional() }),
    update: z.strictObject({
      title: name.optional(),
      domain: name.optional(),
      content: z.string().nullable().optional(),
      metadata: metadata.optional(),
    }),
  },
  functor: {
    add: z.strictObject({
      name,
      sourceCategory: id,
      targetCategory: id,
      objectMapping: mapping.optional(),
      morphismMapping: mapping.optional(),
    }),
    update: z.strictObject({ name: name.optional(), objectMapping: mappingPatch.optional(), morphismMapping: mappingPatch.optional() }),
  },
  nt: {
    add: z.strictObject({ name, sourceFunctor: id, targetFunctor: id, components: mapping.optional() }),
    update: z.strictObject({ name: name.optional(), components: mappingPatch.optional() }),
  },
};

/** What a morphism's add needs besides the fields the model's schema checks. */
const MORPHISM_ADD = z.looseObject({ category: id });

/** The fields of `request`, checked for its kind and operation. */
export function checkedFields(request: EditRequest): Record<string, unknown> {
  const fields = request.fields ?? {};
  const op = request.op === "add" ? "add" : "update";
  const schema = request.kind === "morphism" ? (op === "add" ? MORPHISM_ADD : z.looseObject({})) : FIELDS[request.kind][op];
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    // A field the kind does not have says more than the fields it lacks.
    const issue = parsed.error.issues.find((i) => i.code === "unrecognized_keys") ?? parsed.error.issues[0];
    const keys = issue?.code === "unrecognized_keys" ? issue.keys : [];
    const field = keys.length > 0 ? keys.join(", ") : (issue?.path.join(".") ?? "");
    const message =
      keys.length > 0
        ? `A ${request.kind} has no field ${keys.map((key) => `'${key}'`).join(", ")} to ${op}`
        : `fields.${field}: ${issue?.message ?? "invalid"}`;
    throw new CatDocInputError(message, { fields: [field], kind: request.kind, op });
  }
  return parsed.data;
}
