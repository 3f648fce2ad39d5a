import { isToolError, MemoryGuard, Readiness, ToolError, type Logger } from "@local-mcp/core";
import type { GenerateRequest, GenerationResult, JsonRequest, JsonResult, RemoteBackend } from "@local-mcp/core/inference";
import type { ServedModel } from "./served-model.js";

export interface RemoteModelSettings {
  /** MOCHI_BACKEND_URL: an OpenAI-compatible API, e.g. http://127.0.0.1:8080/v1. */
  url: string;
  /** MOCHI_BACKEND_MODEL. */
  model: string;
  /** MOCHI_BACKEND_API_KEY: a Bearer token, never logged (core's RemoteBackend redacts it from errors). */
  apiKey?: string | undefined;
  memoryBoundBytes: number;
  deadlineMs: number;
}

/** The last check of the server (GET /models at start-up), shown in mochi://stats. */
export type RemoteCheck = { state: "pending" } | { state: "reachable"; ms: number } | { state: "unreachable"; problem: string };

/**
 * The model on an OpenAI-compatible server (llama.cpp server, Ollama, vLLM) through core's
 * RemoteBackend: the same prompts as the local engine (core's alpacaPrompt; an infill prompt
 * becomes a continuation of the prefix, since that API has no fill-in-the-middle).
 *
 * The adapter law: the server runs whatever model and adapter its operator configured, which
 * mochi cannot see, so there is nothing to load here. The model is usable as soon as the backend
 * exists; a server that is down, refuses or fails answers each call with a coded error (the check
 * at start-up only informs the log and mochi://stats), and a server that comes back is used again
 * without a restart.
 */
export class RemoteMochiModel implements ServedModel {
  readonly readiness = new Readiness("Mochi model (remote server)", { state: "loading", reason: "connecting has not started" });
  readonly memoryGuard: MemoryGuard;
  readonly hasInfillTokens = false;
  readonly configured = true;
  check: RemoteCheck = { state: "pending" };
  private backend: RemoteBackend | undefined;
  private starting: Promise<void> | undefined;

  constructor(
    readonly settings: RemoteModelSettings,
    private readonly logger: Logger,
  ) {
    this.memoryGuard = new MemoryGuard({ boundBytes: settings.memoryBoundBytes });
  }

  get name(): string {
    return this.settings.model;
  }

  /** Makes the backend (usable at once) and checks the server in the background, bounded by the deadline. */
  preload(onProgress?: (fraction: number) => void): Promise<void> {
    this.starting ??= (async () => {
      const { RemoteBackend } = await import("@local-mcp/core/inference");
      const s = this.settings;
      this.backend = new RemoteBackend(
        { baseUrl: s.url, model: s.model, deadlineMs: s.deadlineMs, ...(s.apiKey ? { apiKey: s.apiKey } : {}) },
        { logger: this.logger.child("remote") },
      );
      this.readiness.markReady();
      onProgress?.(1);
      const began = performance.now();
      try {
        await this.backend.load({ signal: AbortSignal.timeout(s.deadlineMs) });
        this.check = { state: "reachable", ms: Math.round(performance.now() - began) };
      } catch (error) {
        const problem = error instanceof Error ? error.message : String(error);
        this.check = { state: "unreachable", problem };
        this.logger.warn(`the remote model server at ${s.url} did not answer the check; calls will try it again`, { problem });
      }
    })();
    return this.starting;
  }

  generate(request: GenerateRequest): Promise<GenerationResult> {
    return this.withSuggestion(() => this.ready().generate(request));
  }

  json<T = unknown>(request: JsonRequest): Promise<JsonResult<T>> {
    return this.withSuggestion(() => this.ready().json<T>(request));
  }

  async dispose(): Promise<void> {
    await this.starting?.catch(() => undefined);
    await this.backend?.dispose();
    this.backend = undefined;
  }

  private ready(): RemoteBackend {
    this.readiness.assertReady();
    if (!this.backend) throw new ToolError("NOT_READY", "The remote backend is not set up yet.");
    return this.backend;
  }

  /** A failure of the server keeps its code and message, with a suggestion that names the variables to check. */
  private async withSuggestion<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!isToolError(error) || (error.code !== "UPSTREAM_ERROR" && error.code !== "TIMEOUT")) throw error;
      const s = this.settings;
      const suggestion =
        error.code === "TIMEOUT"
          ? `The server at ${s.url} did not answer in time: lower max_tokens, raise MOCHI_DEADLINE_MS, or check the server's load.`
          : `Check that the OpenAI-compatible server at ${s.url} (MOCHI_BACKEND_URL) is running and serves the model '${s.model}' (MOCHI_BACKEND_MODEL); the error says what it answered.`;
      throw new ToolError(error.code, error.message, {
        suggestion,
        recoverable: error.recoverable,
        details: { ...error.details, backend: s.url },
        cause: error,
      });
    }
  }
}
