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

export const FORMAT_INPUT = lazySchema(() => z.enum(["json"]).optional());
