import { z } from "zod";
import { LANGUAGES } from "../files/languages.js";
import { IDENTIFIER_KINDS, PATTERN_NAMES } from "../analysis/source-facts.js";

/** The catalog file format; a reader refuses other formats. */
export const CATALOG_FORMAT = "mochi-catalog/1";

export const CONVENTION_NAMES = ["error-handling", "file-layout", "imports", "naming", "tests"] as const;
export type ConventionName = (typeof CONVENTION_NAMES)[number];

const Location = z.object({ file: z.string(), line: z.number().int() });

export const NamingKindSchema = z.object({
  kind: z.enum(IDENTIFIER_KINDS),
  total: z.number().int(),
  /** The most used unambiguous style (or the ambiguous one when no name has an unambiguous style). */
  dominant: z.string(),
  /** Share of names that have the dominant style or a single-word style consistent with it. */
  consistency: z.number(),
  styles: z.record(z.string(), z.number().int()),
  examples: z.array(z.string()),
});
export type NamingKind = z.infer<typeof NamingKindSchema>;

export const ConventionSchema = z.object({
  name: z.enum(CONVENTION_NAMES),
  title: z.string(),
  /** One paragraph a person or a model can act on. */
  summary: z.string(),
  /** The convention as short statements with counts. */
  rules: z.array(z.string()),
  /** The numbers behind the rules. */
  details: z.record(z.string(), z.unknown()),
});
export type Convention = z.infer<typeof ConventionSchema>;

export const PatternSchema = z.object({
  name: z.enum(PATTERN_NAMES),
  title: z.string(),
  description: z.string(),
  occurrences: z.number().int(),
  files: z.number().int(),
  languages: z.array(z.enum(LANGUAGES)),
  /** The id of the example that shows it best (see `examples`). */
  example: z.string(),
  /** Up to 3 example ids, best first. */
  examples: z.array(z.string()),
  /** The first occurrences in path order (at most 20), with the enclosing symbol. */
  locations: z.array(Location.extend({ symbol: z.string() })),
});
export type Pattern = z.infer<typeof PatternSchema>;

export const ExampleSchema = z.object({
  id: z.string(),
  file: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  language: z.enum(LANGUAGES),
  symbol: z.string(),
  /** Why it is an example: the patterns it shows, or `documented` for a documented declaration. */
  shows: z.array(z.string()),
  doc: z.string().optional(),
  code: z.string(),
});
export type Example = z.infer<typeof ExampleSchema>;

/** An exported declaration and its signature (symbol-index.ts): what a completion prompt shows of it. */
export const CatalogSymbolSchema = z.object({
  /** The declaration's name; a method of a long class is `Class.method`. */
  name: z.string(),
  kind: z.enum(IDENTIFIER_KINDS),
  file: z.string(),
  line: z.number().int(),
  /** The declaration without its body (a type, interface or enum whole), at most 400 characters. */
  signature: z.string(),
});
export type CatalogSymbol = z.infer<typeof CatalogSymbolSchema>;

export const CatalogStatsSchema = z.object({
  files: z.number().int(),
  lines: z.number().int(),
  declarations: z.number().int(),
  languages: z.record(z.string(), z.object({ files: z.number().int(), lines: z.number().int() })),
  /** Code files left out for size (minified bundles, generated code). */
  skippedLargeFiles: z.number().int(),
});
export type CatalogStats = z.infer<typeof CatalogStatsSchema>;

export const CatalogSchema = z.object({
  format: z.literal(CATALOG_FORMAT),
  /** `sha256:…` of the rest of the catalog (sorted-key JSON): the version of every resource built from it. */
  version: z.string(),
  stats: CatalogStatsSchema,
  conventions: z.array(ConventionSchema),
  patterns: z.array(PatternSchema),
  examples: z.array(ExampleSchema),
  /** Exported declarations with their signatures, by path and line; absent in catalogs written before it was added. */
  symbols: z.array(CatalogSymbolSchema).optional(),
});
export type Catalog = z.infer<typeof CatalogSchema>;
export type CatalogContent = Omit<Catalog, "version">;
