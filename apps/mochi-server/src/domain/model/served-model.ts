import type { MemoryGuard, Readiness } from "@local-mcp/core";
import type { GenerateRequest, GenerationResult, JsonRequest, JsonResult } from "@local-mcp/core/inference";

/**
 * What the tools and mochi://stats use of the model, whoever runs it: the local GGUF engine
 * (MochiModel, with the codebase's adapter or, with MOCHI_ADAPTER=none, the stock base model) or
 * an OpenAI-compatible server (RemoteMochiModel, MOCHI_BACKEND_URL).
 */
export interface ServedModel {
  readonly readiness: Readiness;
  readonly memoryGuard: MemoryGuard;
  /** Whether there is a model to load or reach (loading can start). */
  readonly configured: boolean;
  /** The name results record: `base.gguf+adapter.gguf@1`, `base.gguf`, or the remote model's name. */
  readonly name: string | undefined;
  readonly hasInfillTokens: boolean;
  preload(onProgress?: (fraction: number) => void): Promise<void>;
  generate(request: GenerateRequest): Promise<GenerationResult>;
  /** The model's own token count of a text, where it can count (the local engine); repository context is budgeted with it. */
  countTokens?(text: string): Promise<number>;
  json<T = unknown>(request: JsonRequest): Promise<JsonResult<T>>;
  dispose(): Promise<void>;
}

/** How the model is served: with the codebase's adapter, the stock base model, or by a remote server. */
export type Serving = { kind: "adapter" } | { kind: "stock" } | { kind: "remote"; model: string; url: string };

/** What every model answer says about who answered: nothing more with the adapter (the law as before). */
export interface ServedByParts {
  minimal: { adapter?: null; backend?: "remote"; model?: string };
  full: { adapter_note?: string };
}

export const STOCK_MODEL_NOTE = "MOCHI_ADAPTER=none: the stock base model answered, without this codebase's adapter.";

export function remoteModelNote(url: string): string {
  return `Answered by the OpenAI-compatible server at ${url}, with whatever model and adapter its operator serves (MOCHI_ADAPTER does not apply); it has no fill-in-the-middle, so code completion continues the prefix.`;
}

/**
 * The fields a model answer carries about how it was served, by level: the stock model says
 * `adapter: null`, a remote server `backend: "remote"` and its model's name; `adapter_note` (full)
 * says what that means. With the adapter nothing is added.
 */
export function servedByParts(serving: Serving): ServedByParts {
  if (serving.kind === "stock") return { minimal: { adapter: null }, full: { adapter_note: STOCK_MODEL_NOTE } };
  if (serving.kind === "remote") {
    return { minimal: { backend: "remote", model: serving.model }, full: { adapter_note: remoteModelNote(serving.url) } };
  }
  return { minimal: {}, full: {} };
}
