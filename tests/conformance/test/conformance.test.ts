/**
 * Every `*-mcp --http PORT` passes the official MCP conformance suite's generic server scenarios
 * (server-initialize, ping, tools-list, logging-set-level, dns-rebinding-protection and
 * resources-list, which every server answers): each check of each scenario is SUCCESS. A failed
 * scenario keeps the suite's checks.json, its output and the server's stderr under
 * test-results/conformance/<server>/<scenario>/.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERIC_SCENARIOS, conformanceNode, keepFailure, runScenario } from "./support/conformance-suite.js";
import { startHttpServer, type HttpServerProcess } from "./support/http-server.js";
import { SERVERS, SERVER_NODE } from "./support/servers.js";

const nodeVersion = (binary: string) => execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();

beforeAll(() => {
  console.log(`conformance suite on Node ${nodeVersion(conformanceNode())}; servers on Node ${nodeVersion(SERVER_NODE)} (${SERVER_NODE})`);
});

describe.each(SERVERS)("$name --http 0 against the official conformance suite", (server) => {
  const scenarios = [...GENERIC_SCENARIOS];
  let dir: string;
  let http: HttpServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `conformance-${server.name}-`));
    const env = await server.env(dir);
    http = await startHttpServer(server, env, dir);
  });

  afterAll(async () => {
    const exit = await http?.stop();
    await rm(dir, { recursive: true, force: true });
    // runServerMain closes the HTTP server on SIGTERM and exits 0.
    expect(exit?.code).toBe(0);
  });

  it("listens on a port the OS chose, serves its tools, advertises resources (every server answers resources/list), and writes nothing to stdout", async () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "conformance-precheck", version: "0.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(http.url));
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()?.resources).toBeDefined();
      expect((await client.listResources()).resources.length > 0).toBe(server.listsResources);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
    expect(http.stdout()).toBe("");
  });

  it.each(scenarios)("passes %s", async (scenario) => {
    const run = await runScenario(http.url, scenario, join(dir, "results", scenario));
    const failed = run.checks.filter((check) => check.status !== "SUCCESS");
    if (run.exitCode !== 0 || run.checks.length === 0 || failed.length > 0) {
      const kept = await keepFailure(server.name, run, http.stderr());
      const summary = failed.map((c) => `${c.id}: ${c.status}${c.errorMessage ? ` — ${c.errorMessage}` : ""}`).join("\n");
      expect.fail(
        `${scenario} against ${server.name}: exit ${run.exitCode}, ${run.checks.length} checks, ${failed.length} not SUCCESS\n${summary}\n${run.output}\n(kept in ${kept})`,
      );
    }
    expect(run.checks.map((c) => c.status)).toEqual(run.checks.map(() => "SUCCESS"));
  });
});
