/** Zod fragments the tools' output schemas share. */
import { lazySchema } from "@local-mcp/core";
import { z } from "zod";

export const MetadataOutput = lazySchema(() => z.record(z.string(), z.unknown()));

/** A morphism in a list or path: ids at minimal, name at standard, metadata at full. */
export const MorphismOutput = lazySchema(() =>
  z.object({
    id: z.string(),
    source: z.string(),
    target: z.string(),
    categoryId: z.string().optional(),
    name: z.string().optional(),
    isIdentity: z.boolean().optional(),
    metadata: MetadataOutput().optional(),
  }),
);

/**
 * `format` of catdoc_list_categories, kept for the original CatDoc's clients: its `json` and
 * `summary` answered alike (the response level decides the detail here), so `summary` is read as
 * `json` without being listed (a preprocess is not part of the input's JSON Schema).
 */
export const FORMAT_INPUT = lazySchema(() => z.preprocess((value) => (value === "summary" ? "json" : value), z.enum(["json"])).optional());
