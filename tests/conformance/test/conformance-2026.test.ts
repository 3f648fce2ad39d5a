/**
 * Every `*-mcp --http 0` against the official suite's 2026-07-28 requirement set
 * (`@modelcontextprotocol/conformance` 0.2.0-alpha.12, installed as conformance-next): one
 * `conformance server --url URL --requirements 2026-07-28` run per server, at that revision's wire
 * (no initialize; a `_meta` envelope on every request). Each required scenario is one test: every
 * check must be SUCCESS (or a SHOULD-level WARNING, printed) except the checks
 * support/expected-failures-2026.ts lists because they drive the suite's own fixtures, and those
 * only while the server lacks the fixture. A failure names each failing requirement as
 * `<scenario> › <check id>: <status> — <the suite's message>`, and the run (the suite's
 * checks.json files, its output and the server's stderr) is kept under
 * test-results/conformance-2026-07-28/<server>/.
 */
import { rm, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPECTED_FAILURES_2026 } from "./support/expected-failures-2026.js";
import { startHttpServer, type HttpServerProcess } from "./support/http-server.js";
import {
  evaluateScenario,
  keepRequirementRun,
  readRequirementSet,
  runRequirementSet,
  type RequirementRun,
  type ServerListing,
} from "./support/requirement-set.js";
import { SERVERS } from "./support/servers.js";

const REVISION = "2026-07-28";
const requirements = readRequirementSet(REVISION);

/** The server's tools, prompts, resources and templates, to tell which of the suite's fixtures it lacks. */
async function listServer(url: string): Promise<ServerListing> {
  const client = new Client({ name: "conformance-2026-listing", version: "0.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  try {
    const capabilities = client.getServerCapabilities() ?? {};
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const prompts = capabilities.prompts ? (await client.listPrompts()).prompts.map((p) => p.name) : [];
    const resources = capabilities.resources ? (await client.listResources()).resources.map((r) => r.uri) : [];
    const templates = capabilities.resources ? (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate) : [];
    return { tools: new Set(tools), prompts: new Set(prompts), resources: new Set(resources), resourceTemplates: new Set(templates) };
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}

describe.each(SERVERS)(`$name --http 0 against the official ${REVISION} requirement set`, (server) => {
  let dir: string;
  let http: HttpServerProcess;
  let run: RequirementRun;
  let listing: ServerListing;
  let kept: string | undefined;

  /** Keeps the run once, on the first failing requirement. */
  const keep = async () => (kept ??= await keepRequirementRun(server.name, run, http.stderr()));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `conformance-2026-${server.name}-`));
    http = await startHttpServer(server, await server.env(dir), dir);
    listing = await listServer(http.url);
    const started = performance.now();
    run = await runRequirementSet(http.url, REVISION, join(dir, "results"));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const unscored = requirements.notScored
      .filter(({ scenario }) => run.scenarios.get(scenario)?.some((c) => c.status === "FAILURE") ?? run.crashed.has(scenario))
      .map(({ scenario, reason }) => `${scenario} (${reason})`);
    console.log(
      `${server.name}: the ${REVISION} run took ${seconds} s, exit ${run.exitCode}; not scored and failing: ${unscored.join(", ") || "none"}`,
    );
  });

  afterAll(async () => {
    const exit = await http?.stop();
    await rm(dir, { recursive: true, force: true });
    expect(exit?.code).toBe(0);
  });

  it.each(requirements.required)(`meets %s`, async (scenario) => {
    const verdict = evaluateScenario(run, scenario, EXPECTED_FAILURES_2026, listing);
    for (const warning of verdict.warnings) console.log(`${server.name} SHOULD: ${warning}`);
    if (verdict.failures.length > 0) {
      const where = await keep();
      expect.fail(`${server.name} fails ${REVISION} requirement(s):\n${verdict.failures.join("\n")}\n(kept in ${where})`);
    }
  });

  it("the suite's own verdict agrees: it exits 1 exactly when a required scenario has a FAILURE check", async () => {
    const scoredFailure = requirements.required.some(
      (scenario) => run.crashed.has(scenario) || (run.scenarios.get(scenario)?.some((c) => c.status === "FAILURE") ?? true),
    );
    if (run.exitCode !== (scoredFailure ? 1 : 0)) await keep();
    expect({ exitCode: run.exitCode, output: run.exitCode === (scoredFailure ? 1 : 0) ? "" : run.output }).toEqual({
      exitCode: scoredFailure ? 1 : 0,
      output: "",
    });
  });

  it("writes nothing to stdout", () => {
    expect(http.stdout()).toBe("");
  });
});
