/**
 * The response contract every tool of this server returns (seed + issue 5):
 *
 *   success, data, error, confidence, tokens_used, tokens_saved, engine
 *   + tokens_over                  when the response cost more tokens than its input (see below)
 *   + retries, schema_valid        for model results (schema_valid also when the caller gave a schema)
 *   + model                        at standard: which model answered
 *   + stats                        at full: the estimates behind tokens_saved, latency, model tokens
 *
 * `tokens_saved` = estimated tokens of what the server read for Claude (files, git output,
 * templates) minus estimated tokens of this response as rendered at the call's level (4
 * characters per token, see domain/tokens.ts), when that is positive; otherwise 0, and the
 * response carries `tokens_over`: how many tokens more the answer cost than reading its input
 * would have (an answer that costs more is not a saving). The same numbers appear at every level
 * so the levels nest. A result below the confidence threshold, with data that fails the caller's
 * schema, or with per-item problems has `success: false`; its data is kept for review.
 */
import { ToolResponse, atLevel, type LevelParts, type ResponseLevel } from "@local-mcp/core";
import { estimateTokens } from "../domain/tokens.js";

export type Json = Record<string, unknown>;
/** A result's data at three levels, built with core's atLevel (later parts only add keys, at any depth). */
export type LevelTree = LevelParts<Json, Json, Json>;

export type EngineName = "deterministic" | "model";

export interface ModelUsage {
  name: string | undefined;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  /** Retries summed over the calls. */
  retries: number;
  schemaValid: boolean;
  /** The lowest confidence of the calls. */
  confidence: number;
  /** Set when a call's server gave no token probabilities: why the confidence is unknown (rendered as `confidence: null`). */
  confidenceUnknown?: string;
}

export interface TaskOutcome {
  engine: EngineName;
  data: LevelTree;
  /** Characters the server read so Claude did not have to. */
  inputChars: number;
  /** Per-item problems; any makes `success` false. */
  problems?: string[];
  model?: ModelUsage;
  /** The deterministic data checked against the caller's `schema`. */
  schemaCheck?: { valid: boolean; error?: string };
}

export interface ResponseSettings {
  confidenceThreshold: number;
  strictSchema: boolean;
  /** The level this call renders at (ctx.level): tokens_saved is measured on it. */
  renderLevel: ResponseLevel;
  latencyMs: number;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export class TaskResponse extends ToolResponse {
  /** Bodies built, by level: the call's level is built once, in the constructor, and reused to render. */
  private readonly bodies = new Map<ResponseLevel, Json>();
  private readonly rendered = new Map<ResponseLevel, Json>();
  /** Estimated tokens saved for the response as the call renders it (0 when it cost more than its input). */
  readonly tokensSaved: number;
  /** Estimated tokens the response cost beyond its input (0 when it saved). */
  readonly tokensOver: number;
  private readonly responseTokens: number;

  constructor(
    readonly outcome: TaskOutcome,
    private readonly settings: ResponseSettings,
  ) {
    super();
    const body = this.body(settings.renderLevel);
    this.responseTokens = estimateTokens(JSON.stringify(body).length);
    const difference = estimateTokens(outcome.inputChars) - this.responseTokens;
    this.tokensSaved = Math.max(0, difference);
    this.tokensOver = Math.max(0, -difference);
  }

  get engine(): EngineName {
    return this.outcome.engine;
  }

  get tokensUsed(): number {
    return this.outcome.model ? this.outcome.model.tokensIn + this.outcome.model.tokensOut : 0;
  }

  /** Everything but tokens_saved, tokens_over and stats. */
  private body(level: ResponseLevel): Json {
    const built = this.bodies.get(level);
    if (built) return built;
    const { outcome, settings } = this;
    const model = outcome.model;
    const unknown = model?.confidenceUnknown;
    const confidence = model ? (unknown === undefined ? round3(model.confidence) : null) : 1;
    const errors = [...(outcome.problems ?? [])];
    if (outcome.schemaCheck && !outcome.schemaCheck.valid && settings.strictSchema) {
      errors.push(`The data does not match the given schema: ${outcome.schemaCheck.error ?? "invalid"}.`);
    }
    if (model && confidence !== null && confidence < settings.confidenceThreshold) {
      errors.push(
        `Low confidence (${confidence} < ${settings.confidenceThreshold}): the model was unsure; review the data before using it, or handle this task directly.`,
      );
    }
    const schemaValid = model ? model.schemaValid && (outcome.schemaCheck?.valid ?? true) : outcome.schemaCheck?.valid;
    const body = atLevel(level, {
      minimal: {
        success: errors.length === 0,
        data: atLevel(level, outcome.data),
        error: errors.length === 0 ? null : errors.join(" "),
        confidence,
        ...(unknown === undefined ? {} : { confidence_note: `${unknown}; accepted without one (LOCAL_MODEL_CONFIDENCE=optional)` }),
        tokens_used: this.tokensUsed,
        engine: outcome.engine,
        ...(model ? { retries: model.retries } : {}),
        ...(schemaValid === undefined ? {} : { schema_valid: schemaValid }),
      },
      standard: model?.name ? { model: model.name } : {},
    });
    this.bodies.set(level, body);
    return body;
  }

  toResponse(level: ResponseLevel): Record<string, unknown> {
    const cached = this.rendered.get(level);
    if (cached) return cached;
    const measured: Json = {};
    for (const [key, value] of Object.entries(this.body(level))) {
      measured[key] = value;
      if (key === "tokens_used") {
        measured.tokens_saved = this.tokensSaved;
        if (this.tokensOver > 0) measured.tokens_over = this.tokensOver;
      }
    }
    const model = this.outcome.model;
    const out = atLevel(level, {
      minimal: measured,
      full: {
        stats: {
          input_tokens_estimate: estimateTokens(this.outcome.inputChars),
          response_tokens_estimate: this.responseTokens,
          latency_ms: Math.round(this.settings.latencyMs * 10) / 10,
          ...(model ? { model_calls: model.calls, model_tokens_in: model.tokensIn, model_tokens_out: model.tokensOut } : {}),
        },
      },
    });
    this.rendered.set(level, out);
    return out;
  }
}
