/**
 * YAML frontmatter (`---` … `---` at the top of a Markdown file) parsed with the `yaml` library,
 * keeping the file line of every key so results can say where a value came from.
 */
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node, type Pair } from "yaml";

export interface Frontmatter {
  /** Whether the file starts with a frontmatter block. */
  present: boolean;
  /** The parsed mapping (empty when absent or invalid). */
  values: Record<string, unknown>;
  /** A YAML error with its file line, when the block does not parse to a mapping. */
  error?: string;
  /** File lines of the opening and closing `---` (1-based). */
  startLine: number;
  endLine: number;
  /** Top-level keys in file order. */
  keys: string[];
  document?: Document.Parsed;
  lineCounter?: LineCounter;
}

const OPEN = /^---[ \t]*\r?$/;
const CLOSE = /^(---|\.\.\.)[ \t]*\r?$/;

export function parseFrontmatter(text: string): Frontmatter {
  const lines = text.split("\n");
  const absent: Frontmatter = { present: false, values: {}, startLine: 0, endLine: 0, keys: [] };
  if (!OPEN.test(lines[0] ?? "")) return absent;
  let end = -1;
  for (let i = 1; i < lines.length; i++) {
    if (CLOSE.test(lines[i] ?? "")) {
      end = i;
      break;
    }
  }
  if (end < 0) return absent;
  const yamlText = lines.slice(1, end).join("\n");
  const lineCounter = new LineCounter();
  const document = parseDocument(yamlText, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const base: Frontmatter = { present: true, values: {}, startLine: 1, endLine: end + 1, keys: [], document, lineCounter };
  const firstError = document.errors[0];
  if (firstError) {
    const yamlLine = firstError.linePos?.[0]?.line;
    const where = yamlLine === undefined ? "" : ` at line ${yamlLine + 1}`;
    const message = (firstError.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    return { ...base, error: `YAML error in the frontmatter${where}: ${message}` };
  }
  if (document.contents === null) return base;
  if (!isMap(document.contents)) return { ...base, error: "The frontmatter is not a YAML mapping." };
  let values: unknown;
  try {
    values = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ...base, error: `YAML error in the frontmatter: ${(error as Error).message}` };
  }
  const keys = document.contents.items.map((pair) => keyText(pair)).filter((k): k is string => k !== undefined);
  return { ...base, values: (values ?? {}) as Record<string, unknown>, keys };
}

function keyText(pair: Pair): string | undefined {
  return isScalar(pair.key) ? String(pair.key.value) : undefined;
}

export interface FieldValue {
  found: boolean;
  value: unknown;
  /** File line of the key, when found. */
  line: number | undefined;
}

/**
 * The value at `field`: a top-level key, or a dotted path into nested mappings
 * (`must_haves.truths`) when no top-level key has that exact name.
 */
export function frontmatterField(frontmatter: Frontmatter, field: string): FieldValue {
  const missing: FieldValue = { found: false, value: null, line: undefined };
  const root = frontmatter.document?.contents;
  if (!root || !isMap(root)) return missing;
  const paths = field.includes(".") ? [[field], field.split(".")] : [[field]];
  for (const path of paths) {
    let node: Node | null | undefined = root as Node;
    let pair: Pair | undefined;
    for (const segment of path) {
      if (!node || !isMap(node)) {
        pair = undefined;
        break;
      }
      pair = node.items.find((p) => keyText(p) === segment) as Pair | undefined;
      node = pair?.value as Node | null | undefined;
    }
    if (pair) {
      const value = pair.value === null || pair.value === undefined ? null : (pair.value as Node).toJS(frontmatter.document as Document, { maxAliasCount: 100 });
      const offset = (pair.key as Node | undefined)?.range?.[0];
      const line = offset === undefined || !frontmatter.lineCounter ? undefined : frontmatter.lineCounter.linePos(offset).line + frontmatter.startLine;
      return { found: true, value: value ?? null, line };
    }
  }
  return missing;
}
