/**
 * Naming styles of identifiers. A name is classified after stripping leading `_`/`$` and trailing
 * `_` (privacy markers, counted apart). Single-word names are ambiguous: `lowercase` fits
 * camelCase, snake_case and kebab-case; `UPPERCASE` fits UPPER_SNAKE_CASE and PascalCase (acronyms).
 */
export const NAMING_STYLES = [
  "camelCase",
  "PascalCase",
  "UPPER_SNAKE_CASE",
  "snake_case",
  "kebab-case",
  "lowercase",
  "UPPERCASE",
  "other",
] as const;
export type NamingStyle = (typeof NAMING_STYLES)[number];

/** Styles a single-word (ambiguous) name is consistent with. */
export const COMPATIBLE_STYLES: Readonly<Record<NamingStyle, readonly NamingStyle[]>> = {
  camelCase: [],
  PascalCase: [],
  UPPER_SNAKE_CASE: [],
  snake_case: [],
  "kebab-case": [],
  lowercase: ["camelCase", "snake_case", "kebab-case"],
  UPPERCASE: ["UPPER_SNAKE_CASE", "PascalCase"],
  other: [],
};

export function stripPrivacyMarks(name: string): string {
  return name.replace(/^[_$#]+/, "").replace(/_+$/, "");
}

export function namingStyle(name: string): NamingStyle {
  const core = stripPrivacyMarks(name);
  if (/^[a-z][a-z0-9]*$/.test(core)) return "lowercase";
  if (/^[A-Z][A-Z0-9]*$/.test(core)) return "UPPERCASE";
  if (/^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/.test(core) || /^[a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]*$/.test(core)) return "camelCase";
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(core)) return "UPPER_SNAKE_CASE";
  if (/^[A-Z][a-zA-Z0-9]*$/.test(core)) return "PascalCase";
  if (/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(core)) return "snake_case";
  if (/^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/.test(core)) return "kebab-case";
  return "other";
}

/** Words of an identifier: `parseHTTPResponse_v2` → parse, http, response, v2. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** `lib/errors.ts` → `lib-errors-ts`; `ToolError` → `tool-error`: safe in a URI segment. */
export function slug(text: string): string {
  const words = identifierWords(text);
  return words.length > 0 ? words.join("-") : "x";
}
