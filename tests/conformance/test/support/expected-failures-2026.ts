/**
 * The only failures the 2026-07-28 requirement set may show against our servers: checks that drive
 * the suite's own fixtures — tools, prompts and resources its reference server (`everythingServer`)
 * registers under fixed names such as `test_simple_text`, `test_simple_prompt` or
 * `test://static-text`. Our servers serve their own tools, not those, so these checks cannot pass
 * against them whatever the protocol layer does.
 *
 * Each entry names the scenario, the exact checks that may fail (any other failing check of that
 * scenario is a real failure), the fixtures the checks drive and why. An entry applies to a server
 * only while the server lacks one of its fixtures (the test lists its tools, prompts, resources and
 * templates to see); it must then really fail — a listed check that succeeds, or an entry none of
 * whose checks failed, fails the test as stale. Nothing else goes here: a scenario that fails for
 * any other reason is reported by requirement id (`<scenario> › <check id>`) and fixed in core.
 */

export interface Fixture {
  kind: "tool" | "prompt" | "resource" | "resourceTemplate";
  /** A tool's or prompt's name, a resource's URI, a template's uriTemplate. */
  name: string;
}

export interface ExpectedFailure {
  /** The required scenario, as the requirement set names it. */
  scenario: string;
  /** The check ids of that scenario that may fail. */
  checks: readonly string[];
  /** The suite's fixtures those checks drive. */
  needs: readonly Fixture[];
  reason: string;
}

const tool = (name: string): Fixture => ({ kind: "tool", name });
const prompt = (name: string): Fixture => ({ kind: "prompt", name });
const resource = (name: string): Fixture => ({ kind: "resource", name });
const resourceTemplate = (name: string): Fixture => ({ kind: "resourceTemplate", name });

/** A scenario whose one check calls one fixture tool and judges what it returns. */
const fixtureToolCall = (scenario: string, name: string, what: string): ExpectedFailure => ({
  scenario,
  checks: [scenario],
  needs: [tool(name)],
  reason: `calls the suite's fixture tool ${name} and checks that it returns ${what}`,
});

/** A scenario of SEP-2322 (multi-round-trip requests) whose check drives one fixture. */
const fixtureInputRequired = (scenario: string, check: string, fixture: Fixture, what: string): ExpectedFailure => ({
  scenario,
  checks: [check],
  needs: [fixture],
  reason: `drives the suite's fixture ${fixture.kind} ${fixture.name}, which answers with ${what}`,
});

export const EXPECTED_FAILURES_2026: readonly ExpectedFailure[] = [
  {
    scenario: "server-stateless",
    checks: ["sep-2575-server-rejects-undeclared-capability", "sep-2575-missing-capability-http-400"],
    needs: [tool("test_missing_capability")],
    reason:
      "calls the suite's diagnostic tool test_missing_capability, which needs a client capability the request does not declare, to see -32021 and HTTP 400",
  },
  {
    scenario: "server-stateless",
    checks: ["sep-2575-http-server-no-independent-requests-on-stream"],
    needs: [tool("test_streaming_elicitation")],
    reason: "calls the suite's diagnostic tool test_streaming_elicitation to watch its response stream for independent requests",
  },
  {
    scenario: "server-stateless",
    checks: ["sep-2575-server-no-log-without-loglevel"],
    needs: [tool("test_logging_tool")],
    reason: "calls the suite's diagnostic tool test_logging_tool, which logs, to see no log message without a requested logLevel",
  },
  fixtureToolCall("tools-call-simple-text", "test_simple_text", "one fixed text item"),
  fixtureToolCall("tools-call-image", "test_image_content", "a fixed PNG image item"),
  fixtureToolCall("tools-call-audio", "test_audio_content", "a fixed WAV audio item"),
  fixtureToolCall("tools-call-embedded-resource", "test_embedded_resource", "an embedded test://embedded-resource"),
  fixtureToolCall("tools-call-mixed-content", "test_multiple_content_types", "text, image and resource items together"),
  fixtureToolCall("tools-call-error", "test_error_handling", "an isError result with a fixed message"),
  fixtureToolCall("tools-call-with-progress", "test_tool_with_progress", "three progress notifications (0, 50, 100) before its result"),
  {
    scenario: "resources-read-text",
    checks: ["resources-read-text"],
    needs: [resource("test://static-text")],
    reason: "reads the suite's fixture resource test://static-text and checks its fixed text",
  },
  {
    scenario: "resources-read-binary",
    checks: ["resources-read-binary"],
    needs: [resource("test://static-binary")],
    reason: "reads the suite's fixture resource test://static-binary and checks its fixed blob",
  },
  {
    scenario: "resources-templates-read",
    checks: ["resources-templates-read"],
    needs: [resourceTemplate("test://template/{id}/data")],
    reason: "reads test://template/123/data from the suite's fixture template test://template/{id}/data and checks the substituted id",
  },
  {
    scenario: "prompts-get-simple",
    checks: ["prompts-get-simple"],
    needs: [prompt("test_simple_prompt")],
    reason: "gets the suite's fixture prompt test_simple_prompt and checks its fixed message",
  },
  {
    scenario: "prompts-get-with-args",
    checks: ["prompts-get-with-args"],
    needs: [prompt("test_prompt_with_arguments")],
    reason: "gets the suite's fixture prompt test_prompt_with_arguments with arg1/arg2 and checks they are substituted",
  },
  {
    scenario: "prompts-get-embedded-resource",
    checks: ["prompts-get-embedded-resource"],
    needs: [prompt("test_prompt_with_embedded_resource")],
    reason: "gets the suite's fixture prompt test_prompt_with_embedded_resource and checks its embedded test://example-resource",
  },
  {
    scenario: "prompts-get-with-image",
    checks: ["prompts-get-with-image"],
    needs: [prompt("test_prompt_with_image")],
    reason: "gets the suite's fixture prompt test_prompt_with_image and checks its image item",
  },
  fixtureInputRequired(
    "input-required-result-basic-elicitation",
    "sep-2322-elicitation-incomplete",
    tool("test_input_required_result_elicitation"),
    "an InputRequiredResult asking for an elicitation",
  ),
  fixtureInputRequired(
    "input-required-result-basic-sampling",
    "sep-2322-sampling-incomplete",
    tool("test_input_required_result_sampling"),
    "an InputRequiredResult asking for a sampling",
  ),
  fixtureInputRequired(
    "input-required-result-basic-list-roots",
    "sep-2322-list-roots-incomplete",
    tool("test_input_required_result_list_roots"),
    "an InputRequiredResult asking for roots",
  ),
  fixtureInputRequired(
    "input-required-result-request-state",
    "sep-2322-request-state-incomplete",
    tool("test_input_required_result_request_state"),
    "an InputRequiredResult carrying requestState",
  ),
  fixtureInputRequired(
    "input-required-result-multiple-input-requests",
    "sep-2322-multiple-inputs-incomplete",
    tool("test_input_required_result_multiple_inputs"),
    "several input requests at once",
  ),
  fixtureInputRequired(
    "input-required-result-multi-round",
    "sep-2322-multi-round-r1",
    tool("test_input_required_result_multi_round"),
    "a first round of input requests and requestState",
  ),
  fixtureInputRequired(
    "input-required-result-non-tool-request",
    "sep-2322-non-tool-incomplete",
    prompt("test_input_required_result_prompt"),
    "an InputRequiredResult to prompts/get",
  ),
  fixtureInputRequired(
    "input-required-result-result-type",
    "sep-2322-result-type-included",
    tool("test_input_required_result_elicitation"),
    "an InputRequiredResult whose resultType is checked",
  ),
  fixtureInputRequired(
    "input-required-result-tampered-state",
    "sep-2322-reject-tampered-state",
    tool("test_input_required_result_tampered_state"),
    "requestState the check then tampers with",
  ),
  fixtureInputRequired(
    "input-required-result-capability-check",
    "sep-2322-respect-client-capabilities",
    tool("test_input_required_result_capabilities"),
    "input requests only for the capabilities the client declared",
  ),
];
