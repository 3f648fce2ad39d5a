import { contentHash, stableStringify } from "@local-mcp/core";
import { slug } from "../analysis/naming-style.js";
import { PATTERN_NAMES, type PatternHit, type PatternName } from "../analysis/source-facts.js";
import { LANGUAGES, type Language } from "../files/languages.js";
import { compareCodePoints } from "../files/repo-walker.js";
import { CATALOG_FORMAT, type Catalog, type CatalogContent, type CatalogStats, type Example, type Pattern } from "./catalog-schema.js";
import { errorConvention } from "./error-convention.js";
import { importsConvention } from "./imports-convention.js";
import { layoutConvention } from "./layout-convention.js";
import { namingConvention } from "./naming-convention.js";
import { PATTERN_DEFINITIONS } from "./pattern-definitions.js";
import type { RepositoryScan, ScannedFile } from "./scan-repository.js";
import { snippet } from "./snippets.js";
import { buildSymbolIndex } from "./symbol-index.js";
import { testsConvention } from "./tests-convention.js";

/** A pattern enters the catalog when it recurs: at least this many occurrences. */
export const MIN_PATTERN_OCCURRENCES = 2;
const EXAMPLES_PER_PATTERN = 3;
const LOCATIONS_PER_PATTERN = 20;
/** Documented declarations become examples too: at most this many per file and in all. */
const DOCUMENTED_PER_FILE = 2;
const MAX_DOCUMENTED_EXAMPLES = 400;

interface ExampleCandidate {
  file: ScannedFile;
  symbol: string;
  startLine: number;
  endLine: number;
  shows: Set<string>;
  doc?: string;
}

/**
 * The catalog of a scanned repository. Deterministic: files come sorted by path, every list is
 * sorted, the JSON has sorted keys, and nothing depends on time, the machine or the absolute path;
 * `version` is the content hash of everything else.
 */
export function buildCatalog(scan: RepositoryScan): Catalog {
  const facts = scan.files.map((f) => f.facts);
  const candidates = new Map<string, ExampleCandidate>();
  const candidate = (file: ScannedFile, symbol: string, startLine: number, endLine: number): ExampleCandidate => {
    const key = `${file.path}\u0000${startLine}\u0000${endLine}`;
    let found = candidates.get(key);
    if (!found) {
      found = { file, symbol, startLine, endLine, shows: new Set() };
      candidates.set(key, found);
    }
    return found;
  };

  // Patterns: every hit, grouped; the best hits become examples.
  const hits = new Map<PatternName, Array<{ file: ScannedFile; hit: PatternHit }>>();
  for (const file of scan.files) {
    for (const hit of file.facts.patterns) {
      const list = hits.get(hit.pattern) ?? [];
      list.push({ file, hit });
      hits.set(hit.pattern, list);
    }
  }
  const patternDrafts: Array<{ name: PatternName; list: Array<{ file: ScannedFile; hit: PatternHit }>; chosen: ExampleCandidate[] }> = [];
  for (const name of PATTERN_NAMES) {
    const list = hits.get(name) ?? [];
    if (list.length < MIN_PATTERN_OCCURRENCES) continue;
    const chosen: ExampleCandidate[] = [];
    const seen = new Set<string>();
    for (const { file, hit } of [...list].sort(byExampleFitness)) {
      const key = `${file.path}\u0000${hit.symbol}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const c = candidate(file, hit.symbol, hit.startLine, hit.endLine);
      c.shows.add(name);
      chosen.push(c);
      if (chosen.length === EXAMPLES_PER_PATTERN) break;
    }
    patternDrafts.push({ name, list, chosen });
  }

  // Documented declarations: spread evenly over the repository when there are many.
  const documented: ExampleCandidate[] = [];
  for (const file of scan.files) {
    const chunks = file.facts.chunks.filter((c) => c.exported && (c.doc?.length ?? 0) >= 20).slice(0, DOCUMENTED_PER_FILE);
    for (const chunk of chunks)
      documented.push({
        file,
        symbol: chunk.symbol,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        shows: new Set(),
        ...(chunk.doc ? { doc: chunk.doc } : {}),
      });
  }
  const stride = Math.max(1, documented.length / MAX_DOCUMENTED_EXAMPLES);
  for (let i = 0; i < documented.length; i += stride) {
    const d = documented[Math.floor(i)] as ExampleCandidate;
    const c = candidate(d.file, d.symbol, d.startLine, d.endLine);
    c.shows.add("documented");
    if (d.doc) c.doc = d.doc;
  }
  // A pattern example that is a documented declaration carries its doc.
  for (const file of scan.files) {
    for (const chunk of file.facts.chunks) {
      const c = candidates.get(`${file.path}\u0000${chunk.startLine}\u0000${chunk.endLine}`);
      if (c && chunk.doc && !c.doc) c.doc = chunk.doc;
    }
  }

  const { examples, idOf } = assignExampleIds([...candidates.values()]);
  const patterns: Pattern[] = patternDrafts.map(({ name, list, chosen }) => {
    const definition = PATTERN_DEFINITIONS[name];
    const files = new Set(list.map((h) => h.file.path));
    const languages = LANGUAGES.filter((l) => list.some((h) => h.file.language === l));
    const ids = chosen.map((c) => idOf.get(c) as string);
    return {
      name,
      title: definition.title,
      description: `${definition.description} Seen ${list.length} times in ${files.size} ${files.size === 1 ? "file" : "files"}.`,
      occurrences: list.length,
      files: files.size,
      languages,
      example: ids[0] as string,
      examples: ids,
      locations: list
        .slice(0, LOCATIONS_PER_PATTERN)
        .map(({ file, hit }) => ({ file: file.path, line: hit.startLine, symbol: hit.symbol })),
    };
  });

  const content: CatalogContent = {
    format: CATALOG_FORMAT,
    stats: catalogStats(scan),
    // A convention is what the files show; with no files there is none (not five built from nothing).
    conventions:
      facts.length === 0
        ? []
        : [errorConvention(facts), layoutConvention(facts), importsConvention(facts), namingConvention(facts), testsConvention(facts)],
    patterns,
    examples,
    symbols: buildSymbolIndex(scan.files),
  };
  return { ...content, version: contentHash(stableStringify(content)) };
}

export { serializeCatalog } from "./catalog-file.js";

function catalogStats(scan: RepositoryScan): CatalogStats {
  const languages: Record<string, { files: number; lines: number }> = {};
  for (const language of LANGUAGES) {
    const files = scan.files.filter((f) => f.language === language);
    if (files.length > 0) languages[language] = { files: files.length, lines: files.reduce((s, f) => s + f.facts.lines, 0) };
  }
  return {
    files: scan.files.length,
    lines: scan.files.reduce((s, f) => s + f.facts.lines, 0),
    declarations: scan.files.reduce((s, f) => s + f.facts.declarations.length, 0),
    languages,
    skippedLargeFiles: scan.skippedLarge.length,
  };
}

/** Best examples first: higher quality, then a readable size (3–30 lines), then path and line. */
function byExampleFitness(a: { file: ScannedFile; hit: PatternHit }, b: { file: ScannedFile; hit: PatternHit }): number {
  const misfit = (h: PatternHit) => {
    const lines = h.endLine - h.startLine + 1;
    return lines < 3 ? 3 - lines : lines > 30 ? lines - 30 : 0;
  };
  return (
    b.hit.quality - a.hit.quality ||
    misfit(a.hit) - misfit(b.hit) ||
    compareCodePoints(a.file.path, b.file.path) ||
    a.hit.startLine - b.hit.startLine
  );
}

/** Ids `<file>--<symbol>` (slugs), with `-l<line>` where two would collide; examples sorted by id. */
function assignExampleIds(candidates: ExampleCandidate[]): { examples: Example[]; idOf: Map<ExampleCandidate, string> } {
  const ordered = [...candidates].sort(
    (a, b) => compareCodePoints(a.file.path, b.file.path) || a.startLine - b.startLine || a.endLine - b.endLine,
  );
  const base = new Map<ExampleCandidate, string>(ordered.map((c) => [c, `${slug(c.file.path)}--${slug(c.symbol)}`]));
  const counts = new Map<string, number>();
  for (const id of base.values()) counts.set(id, (counts.get(id) ?? 0) + 1);
  const idOf = new Map<ExampleCandidate, string>();
  const used = new Set<string>();
  for (const c of ordered) {
    let id = base.get(c) as string;
    if ((counts.get(id) ?? 0) > 1) id = `${id}-l${c.startLine}`;
    while (used.has(id)) id = `${id}-x`;
    used.add(id);
    idOf.set(c, id);
  }
  const examples: Example[] = ordered.map((c) => ({
    id: idOf.get(c) as string,
    file: c.file.path,
    startLine: c.startLine,
    endLine: c.endLine,
    language: c.file.language as Language,
    symbol: c.symbol,
    shows: [...c.shows].sort(compareCodePoints),
    ...(c.doc ? { doc: c.doc } : {}),
    code: snippet(c.file.text, c.startLine, c.endLine, c.file.language),
  }));
  examples.sort((a, b) => compareCodePoints(a.id, b.id));
  return { examples, idOf };
}
