/**
 * How conformance-2026.test.ts judges a requirement-set run (support/requirement-set.ts), on
 * made-up runs: a failing check is reported by `<scenario> › <check id>` unless an applicable
 * expected-failure entry names it; entries are stale when the fixture exists or the check passes;
 * a scenario that never ran fails. And the expected-failure list itself: every entry names a
 * scenario the 2026-07-28 set requires and checks and fixtures the installed suite really has.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ConformanceCheck } from "./support/conformance-suite.js";
import { conformanceCli } from "./support/conformance-suite.js";
import { EXPECTED_FAILURES_2026, type ExpectedFailure } from "./support/expected-failures-2026.js";
import { REQUIREMENTS_PACKAGE, evaluateScenario, readRequirementSet, type ServerListing } from "./support/requirement-set.js";

const check = (id: string, status: string, errorMessage?: string): ConformanceCheck => ({
  id,
  status,
  ...(errorMessage ? { errorMessage } : {}),
});
const runOf = (scenarios: Record<string, ConformanceCheck[]>, crashed: Record<string, string> = {}) => ({
  scenarios: new Map(Object.entries(scenarios)),
  crashed: new Map(Object.entries(crashed)),
});
const listing = (tools: string[] = []): ServerListing => ({
  tools: new Set(tools),
  prompts: new Set(),
  resources: new Set(),
  resourceTemplates: new Set(),
});
const simpleText: ExpectedFailure = {
  scenario: "tools-call-simple-text",
  checks: ["tools-call-simple-text"],
  needs: [{ kind: "tool", name: "test_simple_text" }],
  reason: "fixture",
};

describe("evaluateScenario", () => {
  it("reports every FAILURE check by scenario and check id with the suite's message; SUCCESS passes; WARNING is kept apart", () => {
    const run = runOf({
      caching: [
        check("sep-2549-tools-list-caching-hints", "SUCCESS"),
        check("sep-2549-prompts-list-caching-hints", "FAILURE", "prompts/list returned JSON-RPC error -32601: Method not found"),
        check("sep-2549-resources-read-caching-hints", "WARNING", "a SHOULD"),
      ],
    });
    const verdict = evaluateScenario(run, "caching", EXPECTED_FAILURES_2026, listing());
    expect(verdict.failures).toEqual([
      "caching › sep-2549-prompts-list-caching-hints: FAILURE — prompts/list returned JSON-RPC error -32601: Method not found",
    ]);
    expect(verdict.warnings).toEqual(["caching › sep-2549-resources-read-caching-hints: WARNING — a SHOULD"]);
  });

  it("excuses a listed check of a fixture scenario while the server lacks the fixture, and only that check", () => {
    const run = runOf({
      "tools-call-simple-text": [
        check("tools-call-simple-text", "FAILURE", "Failed: Tool test_simple_text not found"),
        check("wire-schema-valid", "FAILURE", "bad id"),
      ],
    });
    const verdict = evaluateScenario(run, "tools-call-simple-text", [simpleText], listing(["catdoc_search"]));
    expect(verdict.excused).toHaveLength(1);
    expect(verdict.failures).toEqual(["tools-call-simple-text › wire-schema-valid: FAILURE — bad id"]);
  });

  it("does not excuse a fixture scenario on a server that has the fixture, and calls the entry out", () => {
    const run = runOf({ "tools-call-simple-text": [check("tools-call-simple-text", "FAILURE", "wrong text")] });
    const verdict = evaluateScenario(run, "tools-call-simple-text", [simpleText], listing(["test_simple_text"]));
    expect(verdict.excused).toEqual([]);
    expect(verdict.failures).toContain("tools-call-simple-text › tools-call-simple-text: FAILURE — wrong text");
    expect(verdict.failures.some((f) => f.includes("does not apply"))).toBe(true);
  });

  it("fails a stale entry: its check succeeds, or none of its checks failed", () => {
    const passing = evaluateScenario(
      runOf({ "tools-call-simple-text": [check("tools-call-simple-text", "SUCCESS")] }),
      "tools-call-simple-text",
      [simpleText],
      listing(),
    );
    expect(passing.failures).toEqual([
      "tools-call-simple-text › tools-call-simple-text: SUCCESS although listed as an expected failure; remove it from expected-failures-2026.ts",
    ]);
    const absent = evaluateScenario(
      runOf({ "tools-call-simple-text": [check("wire-schema-valid", "SUCCESS")] }),
      "tools-call-simple-text",
      [simpleText],
      listing(),
    );
    expect(absent.failures).toEqual([
      "tools-call-simple-text › expected-failure entry for tools-call-simple-text is stale: none of its checks failed; remove it",
    ]);
  });

  it("fails a scenario that wrote no checks, with the suite's reason when it gave one", () => {
    const run = runOf({}, { "tools-list": "JsonRpcError: Bad request" });
    expect(evaluateScenario(run, "tools-list", [], listing()).failures).toEqual([
      "tools-list › (the scenario did not run): JsonRpcError: Bad request",
    ]);
    expect(evaluateScenario(run, "ping", [], listing()).failures).toEqual([
      "ping › (the scenario did not run): no checks.json was written",
    ]);
  });
});

describe("expected-failures-2026.ts", () => {
  const requirements = readRequirementSet("2026-07-28");
  const suiteSource = readFileSync(conformanceCli(REQUIREMENTS_PACKAGE), "utf8");

  it("reads the server leg of the requirement set from the suite: the required scenarios and the unscored ones", () => {
    expect(requirements.required).toContain("server-stateless");
    expect(requirements.required).toContain("tools-call-simple-text");
    expect(requirements.required).not.toContain("tools_call"); // a client scenario
    expect(requirements.notScored).toContainEqual({ scenario: "tasks-lifecycle", reason: "extension" });
    expect(requirements.notScored).toContainEqual({ scenario: "json-schema-2020-12", reason: "pending" });
  });

  it.each(EXPECTED_FAILURES_2026.map((entry) => [`${entry.scenario} ${entry.checks.join(",")}`, entry] as const))(
    "%s: a required scenario; its checks and fixtures are in the installed suite; it has a reason",
    (_, entry) => {
      expect(requirements.required).toContain(entry.scenario);
      for (const id of entry.checks) expect(suiteSource).toContain(id);
      for (const fixture of entry.needs) expect(suiteSource).toContain(fixture.name);
      expect(entry.needs.length).toBeGreaterThan(0);
      expect(entry.reason.length).toBeGreaterThan(20);
    },
  );
});
