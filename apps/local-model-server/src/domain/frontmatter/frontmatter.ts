/**
 * YAML frontmatter (`---` … `---` at the top of a Markdown file) parsed with the `yaml` library,
 * keeping the file line of every key so results can say where a value came from.
 *
 * Bounded (issue #13): a block larger than MAX_FRONTMATTER_BYTES, or nested deeper than the
 * limits below, is refused before the parser sees it — the parser recurses once per level, and a
 * 40 KB line of `[` overflowed the stack or aborted the process. The nesting is measured with the
 * library's own lexer (iterative, so quotes and comments count as the parser sees them). Parsing
 * itself runs in a worker thread (domain/parsing), so a slow block never blocks the server.
 */
import { isMap, isScalar, Lexer, LineCounter, parseDocument, type Document, type Node, type Pair } from "yaml";

/** Most bytes of YAML between the `---` lines that are parsed (GSD frontmatters are a few KB). */
export const MAX_FRONTMATTER_BYTES = 256 * 1024;
/** Deepest flow nesting (`[` / `{`) parsed. */
export const MAX_FLOW_NESTING = 64;
/** Deepest block structure parsed, in columns of indentation plus `-`/`?` indicators on a line. */
export const MAX_BLOCK_NESTING = 256;

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

export interface FrontmatterBlock {
  present: boolean;
  /** File lines of the opening and closing `---` (1-based; 0 when absent). */
  startLine: number;
  endLine: number;
  /** The YAML between them. */
  yamlText: string;
}

/** Where the frontmatter block is, without parsing it. */
export function frontmatterBlock(text: string): FrontmatterBlock {
  const absent: FrontmatterBlock = { present: false, startLine: 0, endLine: 0, yamlText: "" };
  const firstBreak = text.indexOf("\n");
  if (!OPEN.test(firstBreak < 0 ? text : text.slice(0, firstBreak))) return absent;
  const lines = text.split("\n");
  for (let i = 1; i < lines.length; i++) {
    if (CLOSE.test(lines[i] ?? "")) return { present: true, startLine: 1, endLine: i + 1, yamlText: lines.slice(1, i).join("\n") };
  }
  return absent;
}

export interface YamlNesting {
  /** Deepest flow nesting and the (1-based) YAML line where it is reached. */
  flow: number;
  flowLine: number;
  /** Deepest block structure (indentation columns plus `-`/`?` indicators on one line) and its line. */
  block: number;
  blockLine: number;
}

/**
 * How deeply a YAML text nests, from the `yaml` lexer's tokens in one iterative pass (no
 * recursion, linear time): flow collections opened and not yet closed, and per line the
 * indentation plus the block indicators that open a level on that line (`- - - x`).
 */
export function yamlNesting(text: string): YamlNesting {
  const out: YamlNesting = { flow: 0, flowLine: 0, block: 0, blockLine: 0 };
  let line = 1;
  let flow = 0;
  let lineStart = true;
  let indent = 0;
  let indicators = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === "[" || token === "{") {
      flow += 1;
      if (flow > out.flow) [out.flow, out.flowLine] = [flow, line];
    } else if (token === "]" || token === "}") {
      flow = Math.max(0, flow - 1);
    } else if (token === "-" || token === "?") {
      indicators += 1;
    } else if (lineStart && /^ +$/.test(token)) {
      indent = token.length;
    }
    if (indent + indicators > out.block) [out.block, out.blockLine] = [indent + indicators, line];
    lineStart = false;
    for (let at = token.indexOf("\n"); at >= 0; at = token.indexOf("\n", at + 1)) {
      line += 1;
      lineStart = true;
      indent = 0;
      indicators = 0;
    }
  }
  return out;
}

/** Why a frontmatter block is not parsed (too large or too deeply nested), or undefined. */
export function frontmatterRefusal(yamlText: string): string | undefined {
  const bytes = Buffer.byteLength(yamlText, "utf8");
  if (bytes > MAX_FRONTMATTER_BYTES) {
    return `The frontmatter is ${bytes} bytes; at most ${MAX_FRONTMATTER_BYTES} are parsed. Split the data out of the frontmatter, or read the file directly.`;
  }
  const nesting = yamlNesting(yamlText);
  if (nesting.flow > MAX_FLOW_NESTING) {
    return `The frontmatter nests flow collections ([ or {) ${nesting.flow} levels deep at line ${nesting.flowLine + 1}; at most ${MAX_FLOW_NESTING} are parsed.`;
  }
  if (nesting.block > MAX_BLOCK_NESTING) {
    return `The frontmatter nests ${nesting.block} levels deep (indentation and - or ? indicators) at line ${nesting.blockLine + 1}; at most ${MAX_BLOCK_NESTING} are parsed.`;
  }
  return undefined;
}

export function parseFrontmatter(text: string): Frontmatter {
  const block = frontmatterBlock(text);
  const absent: Frontmatter = { present: false, values: {}, startLine: 0, endLine: 0, keys: [] };
  if (!block.present) return absent;
  const refused = frontmatterRefusal(block.yamlText);
  if (refused) return { present: true, values: {}, startLine: block.startLine, endLine: block.endLine, keys: [], error: refused };
  const lineCounter = new LineCounter();
  const document = parseDocument(block.yamlText, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const base: Frontmatter = {
    present: true,
    values: {},
    startLine: block.startLine,
    endLine: block.endLine,
    keys: [],
    document,
    lineCounter,
  };
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

const topLevelIndexes = new WeakMap<Document, Map<string, Pair>>();

/** A top-level pair by key, from an index built once per document (20,000 keys looked up one by one were quadratic). */
function topLevelPair(document: Document, root: { items: unknown[] }, key: string): Pair | undefined {
  let index = topLevelIndexes.get(document);
  if (!index) {
    index = new Map();
    for (const pair of root.items as Pair[]) {
      const text = keyText(pair);
      if (text !== undefined && !index.has(text)) index.set(text, pair);
    }
    topLevelIndexes.set(document, index);
  }
  return index.get(key);
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
      pair =
        node === root
          ? topLevelPair(frontmatter.document as Document, root, segment)
          : (node.items.find((p) => keyText(p) === segment) as Pair | undefined);
      node = pair?.value as Node | null | undefined;
    }
    if (pair) {
      const value =
        pair.value === null || pair.value === undefined
          ? null
          : (pair.value as Node).toJS(frontmatter.document as Document, { maxAliasCount: 100 });
      const offset = (pair.key as Node | undefined)?.range?.[0];
      const line =
        offset === undefined || !frontmatter.lineCounter ? undefined : frontmatter.lineCounter.linePos(offset).line + frontmatter.startLine;
      return { found: true, value: value ?? null, line };
    }
  }
  return missing;
}
