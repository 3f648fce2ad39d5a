import { READ_ONLY, defineTool, isToolError, LeveledResponse, type ToolDefinition } from "@local-mcp/core";
import type { GenerationResult } from "@local-mcp/core/inference";
import { z } from "zod";
import { DOMAIN_ANSWER_TOKENS, domainPrompt } from "../domain/model/prompts.js";
import { questionContext } from "../domain/context/repository-context.js";
import { servedByParts } from "../domain/model/served-model.js";
import { groundingFor } from "../domain/retrieval/grounding.js";
import { entryUri } from "../resources/mochi-uris.js";
import type { MochiRuntime } from "../runtime.js";

const Output = z.object({
  response: z.string().describe("The model's answer"),
  confidence: z.number().min(0).max(1).describe("Geometric mean of the probabilities of the generated tokens"),
  inference_time_ms: z.number().describe("Generation time"),
  tokens_generated: z.number().int(),
  sources: z.array(z.string()).describe("URIs of the catalog entries the prompt was grounded in"),
  grounding: z
    .array(z.object({ uri: z.string(), kind: z.enum(["pattern", "convention", "example"]), title: z.string(), score: z.number() }))
    .optional()
    .describe("The catalog entries used, with their retrieval scores"),
  stop_reason: z.enum(["eos", "stop", "max_tokens"]).optional(),
  catalog_version: z.string().nullable().optional(),
  prompt_input: z.string().optional().describe("The Alpaca Input block the model saw"),
  context: z.array(z.object({ path: z.string(), symbol: z.string(), why: z.string(), tokens: z.number().int() })).optional(),
  tokens_in: z.number().int().optional(),
  model: z.string().optional(),
  adapter: z.null().optional().describe("null: MOCHI_ADAPTER=none, the stock base model answered"),
  backend: z.literal("remote").optional().describe("an OpenAI-compatible server answered (MOCHI_BACKEND_URL)"),
  adapter_note: z.string().optional(),
});

export function domainQueryTool(runtime: MochiRuntime): ToolDefinition {
  return defineTool({
    name: "domain_query",
    title: "Ask the codebase's model",
    description:
      "Ask this codebase's fine-tuned model a question about the codebase (its conventions, patterns, where and how things are done); the answer comes with the catalog entries it was grounded in.",
    input: z.object({
      instruction: z.string().min(1).max(4_000).describe("the question or task"),
      input: z.string().max(20_000).optional().describe("context, e.g. code"),
      max_tokens: z.number().int().min(1).max(4_096).optional().describe("default 512"),
    }),
    output: Output,
    annotations: READ_ONLY,
    timeoutMs: runtime.config.deadlineMs,
    requires: [runtime.model.readiness],
    memoryGuard: runtime.model.memoryGuard,
    handler: async ({ instruction, input = "", max_tokens = DOMAIN_ANSWER_TOKENS }, { signal }) => {
      const started = performance.now();
      const catalog = runtime.catalog.peek();
      let grounding = await groundingFor(runtime.search, catalog, { instruction, input }, signal);
      let context = await questionContext(catalog, { instruction, input }, runtime.contextSettings);
      let result: GenerationResult | undefined;
      let promptInput = "";
      for (;;) {
        const prompt = domainPrompt({ instruction, input, grounding: grounding.map((g) => g.entry.brief), context });
        promptInput = prompt.input ?? "";
        try {
          result = await runtime.model.generate({
            prompt,
            maxTokens: max_tokens,
            signal,
            deadlineMs: runtime.remainingMs(started),
          });
          break;
        } catch (error) {
          // The prompt did not fit the context: ground in one entry fewer, then one definition fewer.
          if (
            isToolError(error) &&
            error.code === "INVALID_INPUT" &&
            grounding.length + context.length > 0 &&
            /does not fit/.test(error.message)
          ) {
            if (grounding.length > 0) grounding = grounding.slice(0, -1);
            else context = context.slice(0, -1);
            continue;
          }
          throw error;
        }
      }
      runtime.latency.record("domain_query", result.wallMs);
      const served = servedByParts(runtime.serving);
      return new LeveledResponse({
        minimal: {
          response: result.text.trim(),
          confidence: Math.round(result.confidence * 1000) / 1000,
          inference_time_ms: Math.round(result.wallMs * 10) / 10,
          tokens_generated: result.tokensOut,
          sources: grounding.map((g) => entryUri(g.entry.kind, g.entry.name)),
          ...served.minimal,
        },
        standard: {
          grounding: grounding.map((g) => ({
            uri: entryUri(g.entry.kind, g.entry.name),
            kind: g.entry.kind,
            title: g.entry.title,
            score: g.score,
          })),
          stop_reason: result.stopReason,
          catalog_version: catalog?.version ?? null,
        },
        full: {
          prompt_input: promptInput,
          context: context.map((c) => ({ path: c.path, symbol: c.symbol, why: c.reason, tokens: c.tokens })),
          tokens_in: result.tokensIn,
          model: runtime.model.name ?? "",
          ...served.full,
        },
      });
    },
  });
}
