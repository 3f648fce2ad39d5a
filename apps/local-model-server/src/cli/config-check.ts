/**
 * `local-model config check`: the resolved configuration, and whether what it names works —
 * roots, templates, and the model (loaded and asked for one tiny JSON answer) or the remote
 * endpoint (reached). Exit code 1 when a configured model does not work.
 */
import { createLogger } from "@local-mcp/core";
import { describeConfig, type LocalModelConfig } from "../config.js";
import { createRuntime } from "../runtime.js";

export interface CheckReport {
  ok: boolean;
  config: Record<string, unknown>;
  templates: { count: number; names: string[] } | { error: string };
  model: { configured: boolean; ok: boolean; detail: string; load_ms?: number; answer_ms?: number; confidence?: number };
}

const PING_SCHEMA = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false };

export async function checkConfig(config: LocalModelConfig, options: { load: boolean }): Promise<CheckReport> {
  const logger = createLogger({ name: "local-model", level: config.logLevel });
  const runtime = createRuntime({ ...config, tokenTracking: false }, logger);
  try {
    const templates = await runtime.templates.list().then(
      (list) => ({ count: list.length, names: list.map((t) => t.name) }),
      (error: unknown) => ({ error: (error as Error).message }),
    );
    let model: CheckReport["model"];
    if (!runtime.model.configured) {
      model = { configured: false, ok: true, detail: "no model configured: deterministic tasks work; model tasks answer NOT_READY" };
    } else if (!options.load) {
      model = { configured: true, ok: true, detail: `${runtime.model.name} (not loaded: --no-load)` };
    } else {
      const started = performance.now();
      try {
        await runtime.model.ensureLoaded();
        const loaded = performance.now();
        const answer = await runtime.model.json(
          { messages: [{ role: "user", content: 'Reply with {"ok": true}.' }], schema: PING_SCHEMA, maxTokens: 16 },
          AbortSignal.timeout(config.timeoutMs),
        );
        model = {
          configured: true,
          ok: true,
          detail: `${runtime.model.name}: ${config.model.kind === "remote" ? "reachable" : "loaded"}, answered schema-valid JSON`,
          load_ms: Math.round(loaded - started),
          answer_ms: Math.round(performance.now() - loaded),
          ...(answer.confidenceUnknown === undefined ? { confidence: Math.round(answer.confidence * 1000) / 1000 } : {}),
        };
      } catch (error) {
        model = { configured: true, ok: false, detail: `${runtime.model.name}: ${(error as Error).message}` };
      }
    }
    const ok = model.ok && !("error" in templates);
    return { ok, config: describeConfig(config), templates, model };
  } finally {
    await runtime.dispose();
  }
}

export function formatCheck(report: CheckReport, config: LocalModelConfig): string {
  const m = config.model;
  const modelLine =
    m.kind === "none"
      ? "none"
      : m.kind === "llama"
        ? `GGUF ${m.path} (gpu ${m.gpu}, context ${m.contextSize}, threads ${m.threads ?? "llama.cpp default"}, max tokens ${m.maxTokens})`
        : `remote ${m.model} at ${m.baseUrl}${m.apiKey ? " (API key set)" : ""} (max tokens ${m.maxTokens})`;
  const timing =
    report.model.load_ms === undefined
      ? ""
      : ` — load ${report.model.load_ms} ms, answer ${report.model.answer_ms} ms, confidence ${report.model.confidence ?? "unknown (the server returns no logprobs; LOCAL_MODEL_CONFIDENCE=optional)"}`;
  const templates =
    "error" in report.templates ? `ERROR ${report.templates.error}` : `${report.templates.count} (${report.templates.names.join(", ")})`;
  return [
    `config file:      ${config.configFile ?? "none (defaults and LOCAL_MODEL_* variables)"}`,
    `roots:            ${config.roots.join(", ")}`,
    `max file size:    ${config.maxFileBytes} bytes`,
    `state dir:        ${config.stateDir} (stats ${config.tokenTracking ? "recorded" : "off"})`,
    `templates:        ${templates}${config.templatesDir ? ` — custom dir ${config.templatesDir}` : ""}`,
    `timeouts:         tool ${config.timeoutMs} ms, regex ${config.regexTimeoutMs} ms per file`,
    `validation:       ${config.maxRetries} retries, confidence threshold ${config.confidenceThreshold}, strict schema ${config.strictSchema}`,
    `logging:          ${config.logLevel}; default response level ${config.responseLevel}`,
    `model:            ${modelLine}`,
    `model status:     ${report.model.ok ? "OK" : "FAILED"} — ${report.model.detail}${timing}`,
    "",
    report.ok ? "OK" : "PROBLEMS FOUND",
    "",
  ].join("\n");
}
