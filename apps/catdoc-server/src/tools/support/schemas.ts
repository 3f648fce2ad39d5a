/** Zod fragments the tools' output schemas share. */
import { z } from "zod";

export const MetadataOutput = z.record(z.string(), z.unknown());

/** A morphism in a list or path: ids at minimal, name at standard, metadata at full. */
export const MorphismOutput = z.object({
  id: z.string(),
  source: z.string(),
  target: z.string(),
  categoryId: z.string().optional(),
  name: z.string().optional(),
  isIdentity: z.boolean().optional(),
  metadata: MetadataOutput.optional(),
});

export const FORMAT_INPUT = z.enum(["json"]).optional().describe("Output format; only json (the result is structured JSON).");
