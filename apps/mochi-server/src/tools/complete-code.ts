import { READ_ONLY, defineTool, LeveledResponse, type ToolDefinition } from "@local-mcp/core";
import type { GenerationResult } from "@local-mcp/core/inference";
import { z } from "zod";
import { type BoundaryReason } from "../domain/model/completion-boundary.js";
import { completeAt, type PromptWindow } from "../domain/model/complete-at.js";
import { completionContext } from "../domain/context/repository-context.js";
import { servedByParts } from "../domain/model/served-model.js";
import type { MochiRuntime } from "../runtime.js";

/** Sampling settings of the alternatives: each its own temperature and seed, so they differ and repeat. */
export const ALTERNATIVE_SAMPLING: ReadonlyArray<{ temperature: number; seed: number }> = [
  { temperature: 0.6, seed: 1 },
  { temperature: 0.8, seed: 2 },
  { temperature: 1.0, seed: 3 },
];
const BOUNDARIES = ["suffix", "line-end", "block-end", "blank-line", "dedent", "none"] as const satisfies readonly BoundaryReason[];

interface Candidate {
  text: string;
  boundary: BoundaryReason;
  temperature: number;
  seed: number | null;
  confidence: number;
  tokens_generated: number;
  tokens_reused?: number;
  ms: number;
}

const Output = z.object({
  completion: z.string().describe("The code to insert at the cursor (greedy)"),
  alternatives: z.array(z.string()).max(3).optional().describe("Up to 3 other completions, sampled, without duplicates"),
  inference_time_ms: z.number(),
  mode: z
    .enum(["infill", "prefix-completion"])
    .optional()
    .describe("infill: fill-in-the-middle tokens; prefix-completion: the model has none"),
  boundary: z.enum(BOUNDARIES).optional().describe("Where the completion was cut"),
  language: z.string().nullable().optional(),
  adapter: z.null().optional().describe("null: MOCHI_ADAPTER=none, the stock base model answered"),
  backend: z.literal("remote").optional().describe("an OpenAI-compatible server answered (MOCHI_BACKEND_URL)"),
  model: z.string().optional(),
  adapter_note: z.string().optional(),
  context: z
    .array(z.object({ path: z.string(), symbol: z.string(), why: z.string(), tokens: z.number().int() }))
    .optional()
    .describe("Repository snippets put ahead of the code (MOCHI_CONTEXT)"),
  candidates: z
    .array(
      z.object({
        text: z.string(),
        boundary: z.enum(BOUNDARIES),
        temperature: z.number(),
        seed: z.number().int().nullable(),
        confidence: z.number(),
        tokens_generated: z.number().int(),
        tokens_reused: z.number().int().optional(),
        ms: z.number(),
      }),
    )
    .optional(),
});

export function completeCodeTool(runtime: MochiRuntime): ToolDefinition {
  return defineTool({
    name: "complete_code",
    title: "Complete code like this codebase",
    description: "Completes code at a cursor in this codebase's style: the rest of the line or block.",
    input: z.object({
      prefix: z.string().max(200_000).describe("code before the cursor"),
      suffix: z.string().max(200_000).optional().describe("code after the cursor"),
      language: z.string().max(40).optional().describe("e.g. typescript"),
      scope: z.enum(["line", "block"]).optional().describe("default block"),
      max_tokens: z.number().int().min(1).max(1_024).optional().describe("default 48 (line), 128 (block)"),
      max_alternatives: z.number().int().min(0).max(3).optional().describe("default 0"),
    }),
    output: Output,
    annotations: READ_ONLY,
    // A plain call answers at standard (mode, boundary, the alternatives asked for); minimal is the completion alone.
    responseLevel: "standard",
    timeoutMs: runtime.config.deadlineMs,
    requires: [runtime.model.readiness],
    memoryGuard: runtime.model.memoryGuard,
    handler: async ({ prefix, suffix = "", language, scope = "block", max_tokens, max_alternatives = 0 }, { signal }) => {
      const started = performance.now();
      const context = await completionContext(runtime.catalog.peek(), { prefix, language }, runtime.contextSettings);
      let window: PromptWindow | undefined;
      const run = async (sampling: { temperature: number; seed?: number }): Promise<{ result: GenerationResult; candidate: Candidate }> => {
        const done = await completeAt(runtime.model, {
          prefix,
          suffix,
          language,
          scope,
          context,
          maxTokens: max_tokens,
          temperature: sampling.temperature,
          seed: sampling.seed,
          signal,
          remainingMs: () => runtime.remainingMs(started),
          window,
        });
        // Alternatives start from the window the greedy completion fitted in.
        window = done.window;
        const { result } = done;
        return {
          result,
          candidate: {
            text: done.text,
            boundary: done.reason,
            temperature: sampling.temperature,
            seed: sampling.seed ?? null,
            confidence: Math.round(result.confidence * 1000) / 1000,
            tokens_generated: result.tokensOut,
            ...(result.tokensReused === undefined ? {} : { tokens_reused: result.tokensReused }),
            ms: Math.round(result.wallMs * 10) / 10,
          },
        };
      };

      const main = await run({ temperature: 0 });
      const candidates: Candidate[] = [main.candidate];
      let inferenceMs = main.result.wallMs;
      const alternatives: string[] = [];
      const seen = new Set([normalise(main.candidate.text)]);
      for (const sampling of ALTERNATIVE_SAMPLING.slice(0, max_alternatives)) {
        // Sample only while another generation as long as the first fits in what is left of the deadline.
        const left = runtime.config.deadlineMs - (performance.now() - started);
        if (left < main.result.wallMs * 1.5 + 50) break;
        const alternative = await run(sampling);
        inferenceMs += alternative.result.wallMs;
        candidates.push(alternative.candidate);
        const key = normalise(alternative.candidate.text);
        if (key !== "" && !seen.has(key)) {
          seen.add(key);
          alternatives.push(alternative.candidate.text);
        }
      }
      runtime.latency.record("complete_code", inferenceMs);
      const served = servedByParts(runtime.serving);
      return new LeveledResponse({
        minimal: { completion: main.candidate.text, inference_time_ms: Math.round(inferenceMs * 10) / 10, ...served.minimal },
        standard: {
          alternatives,
          mode: main.result.mode === "infill" ? ("infill" as const) : ("prefix-completion" as const),
          boundary: main.candidate.boundary,
          language: language ?? null,
        },
        full: {
          context: context.map((c) => ({ path: c.path, symbol: c.symbol, why: c.reason, tokens: c.tokens })),
          candidates,
          ...served.full,
        },
      });
    },
  });
}

function normalise(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
