import type { Catalog, CatalogSymbol } from "../catalog/catalog-schema.js";
import { compareCodePoints } from "../files/repo-walker.js";
import { renderContext, type ContextSnippet } from "../model/prompts.js";

/** A snippet chosen for a prompt, with what it shows and what it costs. */
export interface ChosenSnippet extends ContextSnippet {
  /** The symbol it defines, or `conventions`. */
  symbol: string;
  /** Tokens it takes in the prompt, as counted by the request's counter. */
  tokens: number;
}

export interface ContextRequest {
  catalog: Catalog;
  /** Code before the cursor (or the question's text, its most relevant part last). */
  prefix: string;
  /** The cursor file's language when known (`typescript`, `python`…): the naming convention of that language is quoted. */
  language?: string | undefined;
  /** The most tokens all snippets together may take. */
  budgetTokens: number;
  /** Tokens a snippet takes once rendered in the prompt (prompts.ts' renderContext of it alone). */
  countTokens: (snippet: ContextSnippet) => number | Promise<number>;
  /** Whether the conventions line leads (completions); a question is grounded in catalog entries instead. */
  conventions?: boolean;
}

/** Characters before the cursor whose identifiers count as used near it. */
const NEAR_CURSOR_CHARS = 2_000;
/** Characters from the start of the prefix where imports are looked for. */
const IMPORT_SCAN_CHARS = 30_000;
/** Distinct identifiers near the cursor looked up at most, nearest first. */
const MAX_IDENTIFIERS = 60;
/** Snippets in one prompt at most (the conventions line included). */
export const MAX_SNIPPETS = 8;
/** Exports of a file imported whole (namespace, default, Python module) shown at most. */
const EXPORTS_PER_MODULE = 3;
const CONVENTIONS_CHARS = 360;
/** Import statements resolved at most, in the order written. */
const MAX_IMPORTS = 64;

/**
 * A token budget for repository context: an eighth of the model's context, at most 1,024 tokens,
 * so the code around the cursor keeps most of the prompt (and complete_code's window halving
 * still makes any prompt fit).
 */
export function contextBudgetTokens(contextSize: number): number {
  return Math.max(0, Math.min(1_024, Math.floor(contextSize / 8)));
}

interface SymbolLookup {
  byName: Map<string, CatalogSymbol[]>;
  byFile: Map<string, CatalogSymbol[]>;
  /** Each file path without its extension, for resolving import specifiers by their tail. */
  modules: Array<{ stem: string; file: string }>;
}

const lookups = new WeakMap<Catalog, SymbolLookup>();

/** The catalog's symbols by name (a method also by its own name) and by file; built once per catalog object. */
function lookupOf(catalog: Catalog): SymbolLookup {
  let lookup = lookups.get(catalog);
  if (lookup) return lookup;
  const byName = new Map<string, CatalogSymbol[]>();
  const byFile = new Map<string, CatalogSymbol[]>();
  const add = (map: Map<string, CatalogSymbol[]>, key: string, symbol: CatalogSymbol) => {
    const list = map.get(key);
    if (list) list.push(symbol);
    else map.set(key, [symbol]);
  };
  for (const symbol of catalog.symbols ?? []) {
    add(byName, symbol.name, symbol);
    const dot = symbol.name.lastIndexOf(".");
    if (dot > 0) add(byName, symbol.name.slice(dot + 1), symbol);
    add(byFile, symbol.file, symbol);
  }
  const modules = [...byFile.keys()].map((file) => ({ stem: file.replace(/\.[^./]+$/, ""), file }));
  lookup = { byName, byFile, modules };
  lookups.set(catalog, lookup);
  return lookup;
}

interface ImportClause {
  /** The file it resolves to among the indexed files, if any. */
  file: string;
  /** Names imported from it; empty for a namespace, default or whole-module import. */
  names: string[];
  specifier: string;
}

/**
 * The repository context for a cursor: the catalog's conventions as one line, the signatures of
 * symbols used near the cursor that are defined in other indexed files, and the exports of the
 * files the prefix imports — in that order of priority, each only while it fits `budgetTokens`.
 * Everything comes from the catalog (its `symbols`, written by `mochi index`); the text is code
 * context for the model, never read as instructions by the server. Linear in the prefix's length;
 * names are looked up in Maps, so `__proto__` or `constructor` are names like any other.
 */
export async function repositoryContext(request: ContextRequest): Promise<ChosenSnippet[]> {
  const { catalog, prefix, budgetTokens, countTokens } = request;
  if (budgetTokens <= 0) return [];
  const lookup = lookupOf(catalog);
  const chosen: ChosenSnippet[] = [];
  const taken = new Set<CatalogSymbol>();
  let used = 0;
  const offer = async (snippet: ContextSnippet, symbol: string): Promise<boolean> => {
    if (chosen.length >= MAX_SNIPPETS) return false;
    const tokens = await countTokens(snippet);
    if (used + tokens > budgetTokens) return false;
    used += tokens;
    chosen.push({ ...snippet, symbol, tokens });
    return true;
  };

  const conventions = request.conventions === false ? "" : conventionsLine(catalog, request.language);
  if (conventions !== "") await offer({ path: "", text: conventions, reason: "the catalog's conventions" }, "conventions");
  if (lookup.byName.size === 0) return chosen;

  const imports = importsOf(prefix.slice(0, IMPORT_SCAN_CHARS), lookup);
  const importedFiles = new Set(imports.map((i) => i.file));
  const local = locallyDeclared(prefix);
  const offerSymbol = async (symbol: CatalogSymbol, reason: string): Promise<void> => {
    if (taken.has(symbol) || chosen.length >= MAX_SNIPPETS) return;
    // The cursor's own file: its declarations are already in the prefix.
    const firstLine = symbol.signature.split("\n", 1)[0] ?? "";
    if (firstLine.length > 12 && prefix.includes(firstLine)) return;
    taken.add(symbol);
    await offer({ path: symbol.file, text: symbol.signature, reason }, symbol.name);
  };

  // Symbols used near the cursor, nearest first; of several with one name, the imported file's.
  for (const name of identifiersNearCursor(prefix.slice(-NEAR_CURSOR_CHARS))) {
    if (chosen.length >= MAX_SNIPPETS) break;
    if (local.has(name)) continue;
    const candidates = lookup.byName.get(name);
    if (!candidates) continue;
    const best = candidates.find((s) => importedFiles.has(s.file)) ?? (candidates.length === 1 ? candidates[0] : undefined);
    if (best) await offerSymbol(best, `${name} is used near the cursor`);
  }
  // The names the prefix imports, then what a whole-module import brings.
  for (const clause of imports) {
    const exports = lookup.byFile.get(clause.file) ?? [];
    for (const name of clause.names) {
      const symbol = exports.find((s) => s.name === name);
      if (symbol) await offerSymbol(symbol, `imported from ${clause.specifier}`);
    }
  }
  for (const clause of imports) {
    if (clause.names.length > 0) continue;
    for (const symbol of (lookup.byFile.get(clause.file) ?? []).slice(0, EXPORTS_PER_MODULE)) {
      await offerSymbol(symbol, `exported by ${clause.specifier}, which the file imports`);
    }
  }
  // Chosen by priority, written in a stable order (the conventions, then by path and text): while
  // the user types in one file the context stays byte for byte the same unless a snippet comes or
  // goes, so the engine keeps its cache of the prompt (docs/mochi.md, Latency).
  return chosen.sort((a, b) =>
    a.path === "" ? -1 : b.path === "" ? 1 : compareCodePoints(a.path, b.path) || compareCodePoints(a.text, b.text),
  );
}

/** The naming, error-handling and import conventions in one line (the naming of `language` when known). */
export function conventionsLine(catalog: Catalog, language?: string): string {
  const summary = (name: string) => catalog.conventions.find((c) => c.name === name)?.summary ?? "";
  let naming = summary("naming").split(". ")[0] ?? "";
  if (language) {
    const part = naming.split("; ").find((p) => p.toLowerCase().startsWith(`${language.toLowerCase()}:`));
    if (part) naming = part;
  }
  const parts = [naming, summary("error-handling"), summary("imports")].map((p) => p.trim().replace(/\.$/, "")).filter((p) => p !== "");
  if (parts.length === 0) return "";
  const line = `Conventions: ${parts.join(". ")}.`.replace(/\s+/g, " ");
  return line.length > CONVENTIONS_CHARS ? `${line.slice(0, CONVENTIONS_CHARS - 1)}…` : line;
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

/** Distinct identifiers of the text, the last one first (nearest the cursor), at most MAX_IDENTIFIERS. */
function identifiersNearCursor(text: string): string[] {
  const all = text.match(IDENTIFIER) ?? [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = all.length - 1; i >= 0 && out.length < MAX_IDENTIFIERS; i--) {
    const name = all[i] as string;
    if (name.length < 2 || seen.has(name)) continue;
    seen.add(name);
    out.push(name);
  }
  return out;
}

/** A declaration at the start of a line (not `type X` inside an import clause). */
const DECLARATION =
  /^[ \t]*(?:(?:export|default|declare|abstract|async|pub|public|private|static|final)[ \t]+)*(?:function\*?|class|interface|type|enum|const|let|var|def|struct|trait|fn)[ \t]+([A-Za-z_$][\w$]*)/gm;

/** Names the prefix declares itself (the cursor's file): their definitions are in view already. */
function locallyDeclared(prefix: string): Set<string> {
  const names = new Set<string>();
  for (const match of prefix.matchAll(DECLARATION)) names.add(match[1] as string);
  return names;
}

const ES_IMPORT =
  /\bimport\s+(?:type\s+)?([\w$]+\s*,\s*)?(\{[^}]{0,2000}\}|\*\s*as\s+[\w$]+|[\w$]+)?\s*(?:from\s*)?["']([^"'\n]{1,300})["']/g;
const REQUIRE = /\brequire\(\s*["']([^"'\n]{1,300})["']\s*\)/g;
const PY_FROM = /^[ \t]*from[ \t]+([\w.]{1,300})[ \t]+import[ \t]+\(?([^\n)]{1,1000})/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w.]{1,300})(?:[ \t]+as[ \t]+\w+)?[ \t]*$/gm;

/** The prefix's imports that resolve to indexed files, in the order written. */
function importsOf(text: string, lookup: SymbolLookup): ImportClause[] {
  const found: Array<{ at: number; specifier: string; names: string[]; python: boolean }> = [];
  for (const m of text.matchAll(ES_IMPORT)) {
    const clause = m[2] ?? "";
    const names = clause.startsWith("{") ? namesIn(clause.slice(1, -1)) : [];
    found.push({ at: m.index, specifier: m[3] as string, names, python: false });
  }
  for (const m of text.matchAll(REQUIRE)) found.push({ at: m.index, specifier: m[1] as string, names: [], python: false });
  for (const m of text.matchAll(PY_FROM))
    found.push({ at: m.index, specifier: m[1] as string, names: namesIn(m[2] as string), python: true });
  for (const m of text.matchAll(PY_IMPORT)) found.push({ at: m.index, specifier: m[1] as string, names: [], python: true });
  found.sort((a, b) => a.at - b.at);
  const clauses: ImportClause[] = [];
  // Each is matched against every indexed file: a file of thousands of imports costs no more than its first MAX_IMPORTS.
  for (const f of found.slice(0, MAX_IMPORTS)) {
    const file = resolveModule(f.specifier, f.python, lookup);
    if (file) clauses.push({ file, names: f.names, specifier: f.specifier });
  }
  return clauses;
}

/** `a, b as c, type D` → a, b, D. */
function namesIn(list: string): string[] {
  return list
    .split(",")
    .map((part) =>
      part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)[0]
        ?.trim(),
    )
    .filter((name): name is string => name !== undefined && /^[A-Za-z_$][\w$]*$/.test(name));
}

/**
 * The indexed file an import specifier names: a relative specifier by its path without `./`,
 * `../` and extension (the indexed file whose path ends with it), a Python module by its dotted
 * path. Package imports resolve to nothing.
 */
function resolveModule(specifier: string, python: boolean, lookup: SymbolLookup): string | undefined {
  let tail: string;
  if (python) {
    tail = specifier.replace(/^\.+/, "").replace(/\./g, "/");
  } else {
    if (!specifier.startsWith(".")) return undefined;
    tail = specifier.replace(/^(?:\.\.?\/)+/, "").replace(/\.[cm]?[jt]sx?$/, "");
  }
  if (tail === "" || tail === ".") return undefined;
  const match = (stem: string) => stem === tail || stem.endsWith(`/${tail}`);
  const direct = lookup.modules.filter((m) => match(m.stem));
  const found = direct.length > 0 ? direct : lookup.modules.filter((m) => match(m.stem.replace(/\/(?:index|__init__)$/, "")));
  // Several files end the same way: the shortest path (nearest the root) is the likeliest.
  return found.sort((a, b) => a.file.length - b.file.length)[0]?.file;
}

/** What decides whether and how much repository context a prompt gets. */
export interface RepositoryContextSettings {
  /** MOCHI_CONTEXT (default on); mochi eval's `--context on|off`. */
  enabled: boolean;
  /** The model's context in tokens (MOCHI_CONTEXT_SIZE): the budget is contextBudgetTokens of it. */
  contextSize: number;
  /** The model's exact token count of a text; without it a snippet counts its UTF-8 bytes, a bound no byte-fallback vocabulary exceeds. */
  countTokens?: ((text: string) => Promise<number>) | undefined;
}

/** UTF-8 bytes of a text: at least as many as its tokens in a vocabulary with byte fallback (llama.cpp's BPE and SentencePiece models). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * The snippets a completion at a cursor gets (complete_code and mochi eval call this, then pass the
 * result to completeAt): none when off or without a catalog; counted as prompts.ts renders them.
 */
export async function completionContext(
  catalog: Catalog | undefined,
  cursor: { prefix: string; language?: string | undefined },
  settings: RepositoryContextSettings,
): Promise<ChosenSnippet[]> {
  if (!settings.enabled || !catalog) return [];
  const count = settings.countTokens ?? ((text: string) => Promise.resolve(utf8Bytes(text)));
  return repositoryContext({
    catalog,
    prefix: cursor.prefix,
    language: cursor.language,
    budgetTokens: contextBudgetTokens(settings.contextSize),
    countTokens: (snippet) => count(renderContext([snippet], cursor.language)),
  });
}

/**
 * The definitions a question names (domain_query): symbols of the instruction and input defined in
 * indexed files, within the same budget; no conventions line (the catalog entries ground it).
 */
export async function questionContext(
  catalog: Catalog | undefined,
  question: { instruction: string; input: string },
  settings: RepositoryContextSettings,
): Promise<ChosenSnippet[]> {
  if (!settings.enabled || !catalog) return [];
  const count = settings.countTokens ?? ((text: string) => Promise.resolve(utf8Bytes(text)));
  return repositoryContext({
    catalog,
    // The instruction last: its names count as nearest the cursor.
    prefix: `${question.input}\n${question.instruction}`,
    budgetTokens: contextBudgetTokens(settings.contextSize),
    countTokens: (snippet) => count(renderContext([snippet])),
    conventions: false,
  });
}
