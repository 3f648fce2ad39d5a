import { COMPATIBLE_STYLES, NAMING_STYLES, namingStyle, stripPrivacyMarks, type NamingStyle } from "../analysis/naming-style.js";
import { IDENTIFIER_KIND_LABELS, IDENTIFIER_KINDS, type FileFacts, type IdentifierKind } from "../analysis/source-facts.js";
import { LANGUAGES, languageName, type Language } from "../files/languages.js";
import type { Convention, NamingKind } from "./catalog-schema.js";
import { Counter, percent, ratio } from "./counting.js";

const DEFINITE: readonly NamingStyle[] = ["camelCase", "PascalCase", "UPPER_SNAKE_CASE", "snake_case", "kebab-case"];
const EXAMPLES_PER_KIND = 3;

/** A file's base name without extensions: `tool-definition.test.ts` → `tool-definition`. */
export function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.indexOf(".", 1);
  return dot < 0 ? base : base.slice(0, dot);
}

/** Naming of one kind of identifier: style counts, the dominant style, consistency, examples. */
export function namingOfKind(kind: IdentifierKind, names: readonly string[]): NamingKind | undefined {
  const styles = new Counter();
  const byStyle = new Map<NamingStyle, string[]>();
  for (const name of names) {
    if (stripPrivacyMarks(name) === "") continue;
    const style = namingStyle(name);
    styles.add(style);
    const list = byStyle.get(style) ?? [];
    if (!list.includes(name) && list.length < EXAMPLES_PER_KIND) list.push(name);
    byStyle.set(style, list);
  }
  const total = styles.total;
  if (total === 0) return undefined;
  const rank = (style: NamingStyle) => NAMING_STYLES.indexOf(style);
  const definite = DEFINITE.filter((s) => styles.get(s) > 0).sort((a, b) => styles.get(b) - styles.get(a) || rank(a) - rank(b));
  const dominant =
    definite[0] ??
    (NAMING_STYLES.filter((s) => styles.get(s) > 0).sort((a, b) => styles.get(b) - styles.get(a) || rank(a) - rank(b))[0] as NamingStyle);
  const consistent = NAMING_STYLES.filter((s) => s === dominant || COMPATIBLE_STYLES[s].includes(dominant)).reduce(
    (sum, s) => sum + styles.get(s),
    0,
  );
  return {
    kind,
    total,
    dominant,
    consistency: ratio(consistent, total),
    styles: styles.toRecord(),
    examples: byStyle.get(dominant) ?? [],
  };
}

/** The naming convention: per language and identifier kind, in declaration order over sorted files. */
export function namingConvention(facts: readonly FileFacts[]): Convention {
  const byLanguage = new Map<Language, Map<IdentifierKind, string[]>>();
  for (const file of facts) {
    const kinds = byLanguage.get(file.language) ?? new Map<IdentifierKind, string[]>();
    byLanguage.set(file.language, kinds);
    const push = (kind: IdentifierKind, name: string) => {
      const list = kinds.get(kind) ?? [];
      list.push(name);
      kinds.set(kind, list);
    };
    push("file", fileStem(file.path));
    for (const declaration of file.declarations) push(declaration.kind, declaration.name);
  }
  const languages = LANGUAGES.filter((l) => byLanguage.has(l));
  const details: Record<string, NamingKind[]> = {};
  const rules: string[] = [];
  const summaries: string[] = [];
  for (const language of languages) {
    const kinds = byLanguage.get(language) as Map<IdentifierKind, string[]>;
    const list = IDENTIFIER_KINDS.map((kind) => namingOfKind(kind, kinds.get(kind) ?? [])).filter((k): k is NamingKind => k !== undefined);
    details[language] = list;
    const prefix = languages.length > 1 ? `${languageName(language)} ` : "";
    for (const k of list) {
      const matching = Math.round(k.consistency * k.total);
      const examples = k.examples.length > 0 ? `, e.g. ${k.examples.join(", ")}` : "";
      rules.push(
        `${prefix}${IDENTIFIER_KIND_LABELS[k.kind]} are ${k.dominant}: ${matching} of ${k.total} (${percent(matching, k.total)})${examples}`,
      );
    }
    const headline = list
      .filter((k) => ["file", "class", "function", "constant"].includes(k.kind))
      .map((k) => `${IDENTIFIER_KIND_LABELS[k.kind]} ${k.dominant}`)
      .join(", ");
    if (headline) summaries.push(`${languages.length > 1 ? `${languageName(language)}: ` : ""}${headline}`);
  }
  return {
    name: "naming",
    title: "Naming conventions",
    summary:
      summaries.length > 0
        ? `${summaries.join("; ")}. Single-word names count as consistent with every style they fit.`
        : "No named declarations were found.",
    rules,
    details: { byLanguage: details },
  };
}
