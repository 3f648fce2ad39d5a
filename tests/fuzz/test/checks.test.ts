/** How one call's outcome is judged, and which runs count an INTERNAL answer as a failure. */
import { preloadResponseTokenizer } from "@local-mcp/core";
import { describe, expect, it } from "vitest";
import { checkCall, type CheckContext } from "../src/checks.js";
import type { CallOutcome } from "../src/connection.js";
import { harnessOptions } from "../src/options.js";
import { TARGETS, failsOnInternal } from "../src/targets/index.js";

const context: CheckContext = {
  deadlineMs: 1_000,
  slackMs: 500,
  sentinel: "SENTINEL-1",
  nonJsonBefore: 0,
  nonJsonAfter: 0,
  exited: undefined,
};
const body = (code: string, message = "bad") => ({ error: { code, status: 400, message, recoverable: true, suggestion: "fix it" } });
const toolError = (value: unknown, latencyMs = 5): CallOutcome => ({
  kind: "result",
  latencyMs,
  raw: false,
  result: { isError: true, content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> },
});
const kinds = (outcome: CallOutcome, extra: Partial<CheckContext> = {}) =>
  checkCall(outcome, { ...context, ...extra }).failures.map((f) => f.kind);

describe("checkCall", () => {
  it("passes results, coded tool errors and protocol errors", () => {
    expect(
      checkCall({ kind: "result", latencyMs: 3, raw: false, result: { content: [], structuredContent: { count: 1 } } }, context),
    ).toMatchObject({ verdict: "ok", failures: [] });
    expect(checkCall(toolError(body("NOT_FOUND")), context)).toMatchObject({ verdict: "tool_error", code: "NOT_FOUND", failures: [] });
    expect(checkCall({ kind: "rpc-error", code: -32602, message: "Invalid params", latencyMs: 1, raw: false }, context)).toMatchObject({
      verdict: "protocol_error",
      failures: [],
    });
  });

  it("fails uncoded errors, internal JSON-RPC errors and stack traces", () => {
    expect(kinds(toolError({ message: "no code" }))).toEqual(["uncoded_error"]);
    expect(kinds({ kind: "rpc-error", code: -32603, message: "Internal error", latencyMs: 1, raw: false })).toEqual(["uncoded_error"]);
    expect(kinds(toolError(body("INTERNAL", "Internal error: boom\n    at run (/app/dist/x.js:10:5)")))).toEqual(["stack_trace"]);
  });

  it("fails late answers, crashes, stdout noise, oversized answers and escapes from the root", () => {
    expect(kinds(toolError(body("TIMEOUT"), 1_600))).toEqual(["deadline_overrun"]);
    expect(kinds({ kind: "timeout", latencyMs: 6_500, raw: false })).toEqual(["deadline_overrun"]);
    expect(kinds({ kind: "closed", message: "Connection closed", latencyMs: 2, raw: false }, { exited: "exited with code 1" })).toEqual([
      "crash",
    ]);
    expect(kinds(toolError(body("NOT_FOUND")), { nonJsonAfter: 2 })).toEqual(["non_json_stdout"]);
    expect(kinds(toolError(body("NOT_FOUND", "x".repeat(120_000))))).toEqual(["oversized_response"]);
    expect(kinds({ kind: "result", latencyMs: 3, raw: false, result: { content: [], structuredContent: { text: "SENTINEL-1" } } })).toEqual(
      ["root_escape"],
    );
  });

  it("measures an answer as core's budget does, in o200k tokens: 105,000 characters of words (~21,000 tokens; chars/4 said 26,250) fit", async () => {
    await preloadResponseTokenizer();
    const answer = (text: string): CallOutcome => ({
      kind: "result",
      latencyMs: 3,
      raw: false,
      result: { content: [], structuredContent: { text } },
    });
    expect(kinds(answer("word ".repeat(21_000)))).toEqual([]);
    expect(kinds(answer("ab ".repeat(34_000)))).toEqual(["oversized_response"]);
  });

  it("lists INTERNAL answers as coded, and fails them only in a strict run", () => {
    expect(checkCall(toolError(body("INTERNAL", "Internal error: boom")), context)).toMatchObject({
      verdict: "tool_error",
      code: "INTERNAL",
      failures: [],
    });
    expect(kinds(toolError(body("INTERNAL", "Internal error: boom")), { failOnInternal: true })).toEqual(["internal_error"]);
  });

  it("runs strict by default for the servers marked strict; FUZZ_STRICT=0 or 1 sets it for all", () => {
    const strictFor = (env: NodeJS.ProcessEnv) =>
      Object.fromEntries(TARGETS.map((t) => [t.short, failsOnInternal(t, harnessOptions(env).failOnInternal)]));
    expect(strictFor({})).toEqual(Object.fromEntries(TARGETS.map((t) => [t.short, t.strict])));
    expect(strictFor({})).toEqual({ catdoc: true, "local-model": true, mochi: true, solo: true });
    expect(Object.values(strictFor({ FUZZ_STRICT: "0" }))).not.toContain(true);
    expect(Object.values(strictFor({ FUZZ_STRICT: "1" }))).not.toContain(false);
    expect(() => harnessOptions({ FUZZ_STRICT: "yes" })).toThrow(/FUZZ_STRICT must be 1 or 0/);
  });

  it("fails results the client found off their output schema", () => {
    expect(
      kinds({
        kind: "rpc-error",
        code: -32602,
        message: "MCP error -32602: Structured content does not match the tool's output schema",
        latencyMs: 1,
        raw: false,
      }),
    ).toEqual(["output_schema"]);
  });
});
