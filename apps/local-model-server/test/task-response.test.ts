import { describe, expect, it } from "vitest";
import { responseTooLarge } from "@local-mcp/core";
import { assertLevelsNested } from "@local-mcp/core/testing";
import { TaskResponse, type TaskOutcome } from "../src/tools/task-response.js";

const outcome: TaskOutcome = {
  engine: "model",
  data: {
    minimal: { results: { "a.md": { found: true, data: { wave: 1 } } } },
    standard: { results: { "a.md": { line_numbers: [5] } } },
    full: { results: { "a.md": { file: { path: "a.md", bytes: 400, tokens_estimate: 100 } } } },
  },
  inputChars: 4000,
  model: { name: "tiny.gguf", calls: 1, tokensIn: 300, tokensOut: 20, retries: 1, schemaValid: true, confidence: 0.9 },
};

const settings = { confidenceThreshold: 0.7, strictSchema: true, renderLevel: "minimal" as const, latencyMs: 12.34 };

describe("TaskResponse (the response contract)", () => {
  it("renders nested levels with the same tokens_saved at each", () => {
    const response = new TaskResponse(outcome, settings);
    const levels = {
      minimal: response.toResponse("minimal"),
      standard: response.toResponse("standard"),
      full: response.toResponse("full"),
    };
    assertLevelsNested(levels);
    expect(levels.minimal).toEqual({
      success: true,
      data: { results: { "a.md": { found: true, data: { wave: 1 } } } },
      error: null,
      confidence: 0.9,
      tokens_used: 320,
      tokens_saved: 1000 - Math.ceil(JSON.stringify({ ...levels.minimal, tokens_saved: undefined }).length / 4),
      engine: "model",
      retries: 1,
      schema_valid: true,
    });
    expect(levels.standard.model).toBe("tiny.gguf");
    expect(levels.full.stats).toEqual({
      input_tokens_estimate: 1000,
      response_tokens_estimate: expect.any(Number),
      latency_ms: 12.3,
      model_calls: 1,
      model_tokens_in: 300,
      model_tokens_out: 20,
    });
    expect(levels.full.tokens_saved).toBe(levels.minimal.tokens_saved);
  });

  it("keeps data but sets success false below the confidence threshold or for data failing a strict schema", () => {
    const low = new TaskResponse({ ...outcome, model: { ...outcome.model!, confidence: 0.5 } }, settings).toResponse("minimal");
    expect(low).toMatchObject({ success: false, confidence: 0.5, data: { results: { "a.md": { found: true } } } });
    expect(low.error).toMatch(/^Low confidence \(0\.5 < 0\.7\)/);
    const { model: _model, ...deterministic } = outcome;
    const invalid = {
      ...deterministic,
      engine: "deterministic" as const,
      schemaCheck: { valid: false, error: "a.md: /wave must be string" },
    };
    expect(new TaskResponse(invalid, settings).toResponse("minimal")).toMatchObject({
      success: false,
      schema_valid: false,
      confidence: 1,
      tokens_used: 0,
    });
    expect(new TaskResponse(invalid, { ...settings, strictSchema: false }).toResponse("minimal")).toMatchObject({
      success: true,
      schema_valid: false,
      error: null,
    });
  });

  it("an answer that costs more than its input saves nothing: tokens_saved 0 and the excess as tokens_over (never a negative saving)", () => {
    const costly = new TaskResponse({ ...outcome, inputChars: 40 }, settings);
    const levels = { minimal: costly.toResponse("minimal"), standard: costly.toResponse("standard"), full: costly.toResponse("full") };
    assertLevelsNested(levels);
    const stats = levels.full.stats as { input_tokens_estimate: number; response_tokens_estimate: number };
    expect(stats.input_tokens_estimate).toBe(10);
    expect(levels.minimal.tokens_saved).toBe(0);
    expect(levels.minimal.tokens_over).toBe(stats.response_tokens_estimate - 10);
    expect(levels.minimal.tokens_over).toBeGreaterThan(0);
    expect(levels.full.tokens_over).toBe(levels.minimal.tokens_over);
    expect(costly.tokensSaved).toBe(0);
    expect(costly.tokensOver).toBe(levels.minimal.tokens_over);
    // A saving has no tokens_over at all.
    expect(new TaskResponse(outcome, settings).toResponse("minimal")).not.toHaveProperty("tokens_over");
  });

  it("renders each level as asked, so the budget error can offer a smaller level (no switch renders full as minimal)", () => {
    const big = { ...outcome, data: { minimal: { count: 1 }, full: { text: "x".repeat(40_000) } } };
    const response = new TaskResponse(big, { ...settings, renderLevel: "full" });
    const minimal = response.toResponse("minimal");
    expect(minimal.data).toEqual({ count: 1 });
    expect(minimal).not.toHaveProperty("stats");
    const error = responseTooLarge({ tool: "local_git", level: "full", tokens: 10_050, maxTokens: 5_000, response, changesState: false });
    expect(error.suggestion).toMatch(/response_level "standard"/);
    const lower = (error.details as { lowerLevels: Record<string, number> }).lowerLevels;
    expect(lower.minimal).toBeLessThan(200);
  });

  it("says confidence null with the reason when the server gave no token probabilities, and applies no threshold to it", () => {
    const unknown = "the model server (m @ http://x/v1) returned no token probabilities (logprobs), so the answer's confidence is unknown";
    const response = new TaskResponse(
      { ...outcome, model: { ...outcome.model!, confidence: 1, confidenceUnknown: unknown } },
      { ...settings, confidenceThreshold: 0.99 },
    );
    expect(response.toResponse("minimal")).toMatchObject({
      success: true,
      error: null,
      confidence: null,
      confidence_note: `${unknown}; accepted without one (LOCAL_MODEL_CONFIDENCE=optional)`,
    });
  });
});
