/**
 * Ranked full-text search over objects with MiniSearch (BM25+): id, title, domain, tags,
 * metadata and document content, each with its own boost. Text is split on spaces and
 * punctuation; runs of CJK characters (which have no spaces) are indexed as overlapping
 * character pairs, so Japanese titles and documents are searchable too. Build one index per
 * loaded version of category.yaml (CatDocProject does) and query it many times.
 */
import MiniSearch from "minisearch";
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from "../defaults.js";
import { CatDocInputError } from "./errors.js";
import type { DocumentSet } from "./documents.js";
import type { CatDocModel } from "./model.js";

export interface SearchOptions {
  /** Only objects of this domain. */
  domain?: string;
  /** Only objects of this category. */
  categoryId?: string;
  /** At most this many hits (default 20, at most 1000). */
  limit?: number;
}

export interface SearchHit {
  id: string;
  title: string;
  domain: string;
  categoryId: string;
  /** BM25+ score with field boosts; higher is better. */
  score: number;
  /** Indexed terms that matched. */
  terms: string[];
  /** Fields in which they matched. */
  fields: string[];
  /** Where the object's document was read from (root-relative), if from a file. */
  documentPath: string | null;
}

export interface SearchResult {
  query: string;
  /** Matches before the limit. */
  total: number;
  hits: SearchHit[];
}

export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT };
const BOOST = { title: 3, id: 2.5, tags: 2, domain: 1.5, metadata: 1, content: 1 };
const FIELDS = Object.keys(BOOST);

interface IndexedObject {
  key: number;
  id: string;
  title: string;
  domain: string;
  categoryId: string;
  tags: string;
  metadata: string;
  content: string;
  documentPath: string | null;
}

const SEPARATOR = /[\s\p{P}\p{S}]+/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々]+/gu;

/** Words, with CJK runs turned into overlapping character pairs. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(SEPARATOR)) {
    if (part === "") continue;
    let last = 0;
    for (const match of part.matchAll(CJK)) {
      const at = match.index ?? 0;
      if (at > last) out.push(part.slice(last, at));
      const run = [...match[0]];
      if (run.length === 1) out.push(run[0] ?? "");
      for (let i = 0; i + 1 < run.length; i += 1) out.push(`${run[i]}${run[i + 1]}`);
      last = at + match[0].length;
    }
    if (last < part.length) out.push(part.slice(last));
  }
  return out;
}

/** Metadata as searchable text: keys and scalar values, nested values flattened. */
function metadataText(value: unknown, depth = 0): string {
  if (depth > 5 || value === null || value === undefined) return "";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map((item) => metadataText(item, depth + 1)).join(" ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${key} ${metadataText(item, depth + 1)}`)
      .join(" ");
  }
  return "";
}

function tagsText(...sources: unknown[]): string {
  return sources
    .flatMap((tags) => (Array.isArray(tags) ? tags : typeof tags === "string" ? [tags] : []))
    .filter((tag): tag is string | number => typeof tag === "string" || typeof tag === "number")
    .join(" ");
}

export class ObjectSearchIndex {
  private readonly engine: MiniSearch<IndexedObject>;
  readonly size: number;

  private constructor(engine: MiniSearch<IndexedObject>, size: number) {
    this.engine = engine;
    this.size = size;
  }

  /** Indexes every object of the model, with its document when `documents` has one. */
  static build(model: CatDocModel, documents?: DocumentSet): ObjectSearchIndex {
    const engine = new MiniSearch<IndexedObject>({
      idField: "key",
      fields: FIELDS,
      storeFields: ["id", "title", "domain", "categoryId", "documentPath"],
      tokenize: (text, field) => (field === "id" ? [text, ...tokenize(text)] : tokenize(text)),
    });
    const entries: IndexedObject[] = [];
    for (const category of model.categories) {
      for (const object of category.objects) {
        const document = documents?.byObject.get(object.id);
        entries.push({
          key: entries.length,
          id: object.id,
          title: object.title,
          domain: object.domain,
          categoryId: category.id,
          tags: tagsText(object.metadata?.["tags"], document?.frontmatter["tags"]),
          metadata: metadataText(object.metadata ?? {}),
          content: document?.body ?? object.content ?? "",
          documentPath: document?.path ?? null,
        });
      }
    }
    engine.addAll(entries);
    return new ObjectSearchIndex(engine, entries.length);
  }

  search(query: string, options: SearchOptions = {}): SearchResult {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      throw new CatDocInputError(`limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}, got ${limit}`, { limit });
    }
    if (query.trim() === "") throw new CatDocInputError("query must not be empty");
    const { domain, categoryId } = options;
    const results = this.engine.search(query, {
      tokenize,
      boost: BOOST,
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      filter: (result) =>
        (domain === undefined || result["domain"] === domain) && (categoryId === undefined || result["categoryId"] === categoryId),
    });
    const hits = results.slice(0, limit).map((result): SearchHit => ({
      id: String(result["id"]),
      title: String(result["title"]),
      domain: String(result["domain"]),
      categoryId: String(result["categoryId"]),
      score: result.score,
      terms: result.terms,
      fields: [...new Set(Object.values(result.match).flat())],
      documentPath: (result["documentPath"] as string | null | undefined) ?? null,
    }));
    return { query, total: results.length, hits };
  }
}
