import { eachAtLevel, lazySchema, LeveledResponse, levelIncludes, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { requireCategory } from "../domain/project-index.js";
import type { DocumentSet, SearchHit } from "../domain/index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;
const SNIPPET_RADIUS = 80;

/** A short excerpt of the object's document around the first matched term. */
function snippet(documents: DocumentSet, hit: SearchHit): string | null {
  const body = documents.byObject.get(hit.id)?.body;
  if (body === undefined || body.trim() === "") return null;
  const lower = body.toLowerCase();
  const at = hit.terms
    .map((term) => lower.indexOf(term.toLowerCase()))
    .filter((i) => i >= 0)
    .sort((a, b) => a - b)[0];
  const start = Math.max(0, (at ?? 0) - SNIPPET_RADIUS);
  const text = body
    .slice(start, start + 2 * SNIPPET_RADIUS)
    .replace(/\s+/g, " ")
    .trim();
  return `${start > 0 ? "…" : ""}${text}${start + 2 * SNIPPET_RADIUS < body.length ? "…" : ""}`;
}

const input = lazySchema(() =>
  z.object({
    query: z.string().trim().min(1).max(1000),
    domain: z.string().min(1).optional().describe("only this domain"),
    categoryId: z.string().min(1).optional().describe("only this category"),
    limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`default ${DEFAULT_LIMIT}`),
  }),
);

const output = lazySchema(() =>
  z.object({
    query: z.string(),
    total: z.number().int().describe("Matches before the limit."),
    returned: z.number().int(),
    truncated: z.boolean(),
    hits: z.array(
      z.object({
        id: z.string(),
        score: z.number(),
        title: z.string().optional(),
        domain: z.string().optional(),
        categoryId: z.string().optional(),
        terms: z.array(z.string()).optional(),
        fields: z.array(z.string()).optional(),
        documentPath: z.string().nullable().optional(),
        snippet: z.string().nullable().optional(),
      }),
    ),
  }),
);

export function catdocSearchTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_search",
    title: "Search documents",
    description:
      "Ranked full-text search (BM25+, prefix, fuzzy, CJK) over object ids, titles, domains, tags, metadata and content. Use it to find the objects a question is about.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ query, domain, categoryId, limit }, { level }) => {
      const loaded = await project.load();
      if (categoryId !== undefined) requireCategory(loaded.index, categoryId);
      const result = await loaded.search(query, {
        limit: limit ?? DEFAULT_LIMIT,
        ...(domain === undefined ? {} : { domain }),
        ...(categoryId === undefined ? {} : { categoryId }),
      });
      const documents = levelIncludes(level, "full") ? await loaded.documents() : undefined;
      return new LeveledResponse((at) => ({
        minimal: {
          query: result.query,
          total: result.total,
          returned: result.hits.length,
          truncated: result.total > result.hits.length,
          hits: eachAtLevel(at, result.hits, (hit) => ({
            minimal: { id: hit.id, score: Math.round(hit.score * 1000) / 1000 },
            standard: { title: hit.title, domain: hit.domain, categoryId: hit.categoryId },
            full: {
              terms: hit.terms,
              fields: hit.fields,
              documentPath: hit.documentPath,
              snippet: documents === undefined ? undefined : snippet(documents, hit),
            },
          })),
        },
      }));
    },
  });
}
