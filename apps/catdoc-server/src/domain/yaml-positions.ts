/**
 * Reading YAML with positions: syntax errors and schema (zod) issues are reported at the line
 * and column of the node they concern, by walking the issue's path through the YAML document.
 */
import { LineCounter, isMap, isNode, isScalar, isSeq, parseDocument } from "yaml";
import type { Document, Node } from "yaml";
import type { z } from "zod";
import { CatDocParseError } from "./errors.js";
import type { FileIssue } from "./errors.js";

/** At most this many issues are listed in one error. */
const MAX_ISSUES = 20;

export interface ParsedYaml {
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

/** Parses YAML text; throws CatDocParseError with line and column on a syntax error. */
export function parseYamlDocument(text: string, file: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new CatDocParseError(
      file,
      doc.errors.slice(0, MAX_ISSUES).map((error) => {
        const at = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
        return { path: "", message: firstSentence(error.message), line: at.line, column: at.col };
      }),
    );
  }
  return { doc, lineCounter };
}

/** Parses YAML text and checks it against a schema; every failure carries line and column. */
export function parseYamlWithSchema<S extends z.ZodType>(text: string, file: string, schema: S): z.output<S> {
  return checkYamlData(parseYamlData(text, file), file, schema);
}

/** YAML text's document and its plain data (what the schemas check, and the parsed-YAML cache keeps). */
export function parseYamlData(text: string, file: string): ParsedYaml & { data: unknown } {
  const parsed = parseYamlDocument(text, file);
  try {
    return { ...parsed, data: parsed.doc.toJS({ maxAliasCount: 1000 }) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CatDocParseError(file, [{ path: "", message, line: 1, column: 1 }]);
  }
}

/** Checks parsed data against a schema; an issue is placed at its node in the document. */
export function checkYamlData<S extends z.ZodType>(parsed: ParsedYaml & { data: unknown }, file: string, schema: S): z.output<S> {
  const result = schema.safeParse(parsed.data);
  if (result.success) return result.data;
  throw new CatDocParseError(
    file,
    result.error.issues.slice(0, MAX_ISSUES).map((issue) => issueAt(parsed, issue.path, issue.message)),
  );
}

/** Places a schema issue at the deepest YAML node its path reaches (the path names the field). */
export function issueAt(parsed: ParsedYaml, path: readonly PropertyKey[], message: string): FileIssue {
  const { node } = nodeAtPath(parsed.doc, path);
  const at = parsed.lineCounter.linePos(node?.range?.[0] ?? 0);
  return { path: formatPath(path), message, line: at.line, column: at.col };
}

/**
 * Walks `path` through the document. Returns the node reached and how many segments were
 * followed; a missing key stops at the map that should have held it, so an issue about a
 * missing field points at the item that lacks it.
 */
export function nodeAtPath(doc: Document, path: readonly PropertyKey[]): { node: Node | undefined; reached: number } {
  let current: unknown = doc.contents;
  let reached = 0;
  for (const segment of path) {
    let next: unknown;
    if (isMap(current)) {
      const pair = current.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair !== undefined) next = isNode(pair.value) && pair.value.range ? pair.value : pair.key;
    } else if (isSeq(current)) {
      next = current.items[Number(segment)];
    }
    if (!isNode(next)) break;
    current = next;
    reached += 1;
  }
  return { node: isNode(current) ? current : undefined, reached };
}

/** `["categories", 0, "objects", 1, "title"]` → `categories[0].objects[1].title` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** yaml's messages end with " at line L, column C:" and a snippet; keep the sentence. */
function firstSentence(message: string): string {
  const cut = message.search(/ at line \d+, column \d+/);
  return (cut >= 0 ? message.slice(0, cut) : (message.split("\n")[0] ?? message)).trim();
}
