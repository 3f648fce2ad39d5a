import { READ_ONLY, defineTool, eachAtLevel, LeveledResponse, type ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { Catalog, Pattern } from "../domain/catalog/catalog-schema.js";
import { servedByParts, type ServedByParts } from "../domain/model/served-model.js";
import { entryUri } from "../resources/mochi-uris.js";
import type { MochiRuntime } from "../runtime.js";

/** Patterns the model re-ranks at most (the best by embeddings). */
const RERANK_CANDIDATES = 8;
/**
 * How much the model's ranking can move a pattern: relevance = embedding × ((1 − w) + w × model
 * score). Multiplying keeps a pattern the embeddings found irrelevant low whatever the model says;
 * among patterns of similar embedding scores the model decides the order.
 */
const MODEL_WEIGHT = 0.3;

interface RankedPattern {
  pattern: Pattern;
  example: string;
  embeddingScore: number;
  /** 1 for the model's first choice down to 1/n for its last; null when the model did not rank. */
  modelScore: number | null;
  relevance: number;
}

/** The ranked patterns at a level: each pattern rendered with core's eachAtLevel, so every level lists the same patterns. */
function suggestionResponse(
  ranked: readonly RankedPattern[],
  inferenceMs: number,
  rankedBy: "embeddings" | "embeddings+model",
  catalogVersion: string,
  note: string | undefined,
  served: ServedByParts,
): LeveledResponse {
  return new LeveledResponse((level) => ({
    minimal: {
      patterns: eachAtLevel(level, ranked, (r) => ({
        minimal: { name: r.pattern.name, relevance: r.relevance, uri: entryUri("pattern", r.pattern.name) },
        standard: { title: r.pattern.title, description: r.pattern.description, example: r.example, occurrences: r.pattern.occurrences },
        full: { embedding_score: r.embeddingScore, model_score: r.modelScore, locations: r.pattern.locations.slice(0, 5) },
      })),
      inference_time_ms: inferenceMs,
      ...served.minimal,
    },
    standard: { ranked_by: rankedBy, catalog_version: catalogVersion },
    full: { ...(note === undefined ? {} : { note }), ...served.full },
  }));
}

const Output = z.object({
  patterns: z.array(
    z.object({
      name: z.string(),
      relevance: z.number().min(0).max(1),
      uri: z.string().describe("The pattern's resource: its description, occurrences and example code"),
      title: z.string().optional(),
      description: z.string().optional(),
      example: z.string().optional().describe("standard: code from this codebase that shows the pattern"),
      occurrences: z.number().int().optional(),
      embedding_score: z.number().optional(),
      model_score: z.number().nullable().optional(),
      locations: z.array(z.object({ file: z.string(), line: z.number().int(), symbol: z.string() })).optional(),
    }),
  ),
  inference_time_ms: z.number().describe("Ranking time (embeddings and, when loaded, the model)"),
  ranked_by: z.enum(["embeddings", "embeddings+model"]).optional(),
  catalog_version: z.string().optional(),
  note: z.string().optional().describe("Why the model did not re-rank, when it did not"),
  adapter: z.null().optional().describe("null: the stock base model re-ranked (MOCHI_ADAPTER=none)"),
  backend: z.literal("remote").optional().describe("an OpenAI-compatible server re-ranked (MOCHI_BACKEND_URL)"),
  model: z.string().optional(),
  adapter_note: z.string().optional(),
});

export function suggestPatternTool(runtime: MochiRuntime): ToolDefinition {
  return defineTool({
    name: "suggest_pattern",
    title: "Suggest this codebase's patterns for a goal",
    description:
      "Returns the patterns this codebase uses for what you are trying to do (error classes, result types, registries, factories…), most relevant first, with an example from the code.",
    input: z.object({
      goal: z.string().min(1).max(4_000),
      context: z.string().max(20_000).optional().describe("the code you are working on"),
      limit: z.number().int().min(1).max(10).optional().describe("default 3"),
    }),
    output: Output,
    annotations: READ_ONLY,
    // The description and example are the answer: without response_level, answer at standard (minimal is the short list).
    responseLevel: "standard",
    timeoutMs: runtime.config.deadlineMs,
    ...(runtime.config.requireAdapter ? { requires: [runtime.model.readiness] } : {}),
    handler: async ({ goal, context = "", limit = 3 }, { signal }) => {
      const started = performance.now();
      const catalog = runtime.catalog.current();
      const query = `${goal}\n${goal}\n${context.slice(0, 4_000)}`;
      const scored = await runtime.search.search(catalog, query, { kinds: ["pattern"], limit: Math.max(limit, RERANK_CANDIDATES), signal });
      let ranked = scored.map((s) => rankedPattern(catalog, s.entry.name, s.score)).filter((r): r is RankedPattern => r !== undefined);
      let rankedBy: "embeddings" | "embeddings+model" = "embeddings";
      let note: string | undefined;
      if (runtime.model.readiness.isReady && ranked.length > 1) {
        try {
          const order = await modelRanking(runtime, goal, context, ranked.slice(0, RERANK_CANDIDATES), signal, started);
          ranked = ranked.map((r) => {
            const position = order.indexOf(r.pattern.name);
            const modelScore = position < 0 ? 0 : Math.round((1 - position / order.length) * 1000) / 1000;
            return { ...r, modelScore, relevance: round(r.embeddingScore * (1 - MODEL_WEIGHT + MODEL_WEIGHT * modelScore)) };
          });
          rankedBy = "embeddings+model";
        } catch (error) {
          if (signal.aborted) throw error;
          note = `the model did not re-rank: ${(error as Error).message}`;
        }
      } else if (!runtime.model.readiness.isReady) {
        note = "the model is not loaded; ranked by embeddings only";
      }
      ranked.sort((a, b) => b.relevance - a.relevance || b.embeddingScore - a.embeddingScore);
      const ms = Math.round((performance.now() - started) * 10) / 10;
      runtime.latency.record("suggest_pattern", ms);
      // Who re-ranked is said only when a model did.
      const served = rankedBy === "embeddings+model" ? servedByParts(runtime.serving) : { minimal: {}, full: {} };
      return suggestionResponse(ranked.slice(0, limit), ms, rankedBy, catalog.version, note, served);
    },
  });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function rankedPattern(catalog: Catalog, name: string, score: number): RankedPattern | undefined {
  const pattern = catalog.patterns.find((p) => p.name === name);
  if (!pattern) return undefined;
  const example = catalog.examples.find((e) => e.id === pattern.example);
  return {
    pattern,
    example: example ? `// ${example.file}\n${example.code}` : "",
    embeddingScore: score,
    modelScore: null,
    relevance: score,
  };
}

/** Asks the model to order the candidates for the goal; the answer is constrained to their names. */
async function modelRanking(
  runtime: MochiRuntime,
  goal: string,
  context: string,
  candidates: readonly RankedPattern[],
  signal: AbortSignal,
  started: number,
): Promise<string[]> {
  const names = candidates.map((c) => c.pattern.name);
  const list = candidates.map((c) => `- ${c.pattern.name}: ${c.pattern.title}. ${c.pattern.description.split(". ")[0] ?? ""}`).join("\n");
  const result = await runtime.model.json<{ ranking: string[] }>({
    prompt: {
      kind: "alpaca",
      instruction: "Rank these patterns of this codebase by how well they fit the goal, best first. Answer in JSON.",
      input: `Goal: ${goal}\n${context.trim() === "" ? "" : `Code:\n${context.slice(0, 1_500)}\n`}Patterns:\n${list}`,
    },
    schema: {
      type: "object",
      properties: { ranking: { type: "array", items: { enum: names }, minItems: 1, maxItems: names.length } },
      required: ["ranking"],
    },
    maxTokens: 16 * names.length + 32,
    maxRetries: 0,
    signal,
    deadlineMs: Math.max(1, Math.floor(runtime.remainingMs(started) * 0.8)),
  });
  return [...new Set(result.value.ranking)];
}
