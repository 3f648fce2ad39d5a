import { READ_ONLY, openWorld, LeveledResponse, defineTool } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { SearchOutcome } from "../domain/library/function-library.js";
import type { SoloServerServices } from "../server.js";
import { functionSummary } from "./function-views.js";
import { FunctionSummarySchema } from "./output-schemas.js";

const round = (n: number | undefined, digits = 4) => (n === undefined ? undefined : Number(n.toFixed(digits)));

function searchResponse(query: string, outcome: SearchOutcome): LeveledResponse {
  const { embedding, unembedded } = outcome;
  const note =
    unembedded > 0
      ? `${unembedded} function(s) have no vector of ${embedding.model} and were matched by keywords only; run \`solo-assets reindex\`.`
      : undefined;
  return new LeveledResponse((level) => {
    const results = outcome.hits.map((hit) =>
      functionSummary(hit.function, level, {
        minimal: { score: round(hit.score, 5) },
        full: {
          similarity: round(hit.similarity),
          keyword_score: round(hit.keywordScore),
          vector_rank: hit.vectorRank,
          keyword_rank: hit.keywordRank,
        },
      }),
    );
    return {
      minimal: {
        count: results.length,
        results,
        ranked_by: outcome.rankedBy,
        ...(unembedded > 0
          ? {
              reindex: {
                code: "EMBEDDING_MODEL_CHANGED",
                functions: unembedded,
                suggestion: `Run \`solo-assets reindex\` to embed them with ${embedding.model}; until then they are matched by keywords only.`,
              },
            }
          : {}),
        ...(results.length === 0 ? { none: "No function matches; write it, then save it with save_function." } : {}),
      },
      standard: { query, embedding_model: embedding.model, ...(note ? { note } : {}) },
      full: { unembedded, below_minimum: outcome.belowMinimum, ...(embedding.error ? { embedding_error: embedding.error } : {}) },
    };
  });
}

export function searchFunctionsTool(host: SoloServerServices): ToolDefinition {
  return defineTool({
    name: "search_functions",
    title: "Search the function library",
    description:
      "Finds library functions for a task: embedding similarity (built-in offline, GGUF, OpenAI-compatible or Gemini) fused with keywords; nothing below a minimum relevance. Call it BEFORE writing a helper; fetch a match with get_function.",
    input: z.object({
      query: z.string().min(1).max(2000).describe("what the function should do"),
      limit: z.number().int().min(1).max(50).default(5),
      tags: z.array(z.string().min(1).max(50)).max(20).optional().describe("any of these"),
      include_broken: z.boolean().default(false).describe("also those failing the gate"),
    }),
    output: z.object({
      count: z.number().int(),
      results: z.array(
        FunctionSummarySchema.extend({
          score: z.number().optional().describe("fused rank score (higher is better)"),
          similarity: z.number().optional(),
          keyword_score: z.number().optional(),
          vector_rank: z.number().int().optional(),
          keyword_rank: z.number().int().optional(),
        }),
      ),
      query: z.string().optional(),
      embedding_model: z.string().optional(),
      note: z.string().optional(),
      ranked_by: z.string().optional().describe("the embedding model and keywords, or keywords only"),
      none: z.string().optional(),
      reindex: z
        .object({ code: z.literal("EMBEDDING_MODEL_CHANGED"), functions: z.number().int(), suggestion: z.string() })
        .optional()
        .describe("functions without a vector of the current model"),
      below_minimum: z.number().int().optional(),
      unembedded: z.number().int().optional(),
      embedding_error: z.string().optional(),
    }),
    annotations: openWorld(READ_ONLY, host.settings.embedding.backend === "gemini" || host.settings.embedding.backend === "openai"),
    responseLevel: "standard",
    handler: async (input, { signal, progress }) => {
      const outcome = await (
        await host.services()
      ).library.search(
        { query: input.query, limit: input.limit, includeBroken: input.include_broken, ...(input.tags ? { tags: input.tags } : {}) },
        signal,
        (done, total, message) => progress({ progress: done, total, message }),
      );
      return searchResponse(input.query, outcome);
    },
  });
}
