/**
 * `--help` fast (issue #14: every `--help` in ≤ 2× `node -e 0`). Asserted by what the help loads,
 * not by a stopwatch: a time ratio swings with the load of a shared machine (node -e 0 itself went
 * from 50 to 390 ms while others built), while what a process loads is exact. `catdoc --help` and
 * every `catdoc <command> --help` may load commander and the CLI's own light modules only; no
 * zod, no MCP SDK, no yaml, MiniSearch or core index, none of the domain's store, validators or
 * importer, no dashboard; `catdoc-mcp --help` loads no npm package at all.
 */
import { fileURLToPath } from "node:url";
import { runObserved } from "@local-mcp/core/testing";
import type { BinRun } from "@local-mcp/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, assertBuilt } from "./run-catdoc.js";

beforeAll(assertBuilt);
const MCP = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
const COMMANDS = ["init", "import", "validate", "list", "show", "search", "trace", "coverage", "export", "graph", "dashboard", "mcp"];

/** What the app's sources may not load for --help: everything a command needs to run. */
const HEAVY_SOURCES = [
  "src/config.ts",
  "src/server.ts",
  "src/domain/",
  "src/dashboard/",
  "src/tools/",
  "src/resources/",
  "src/cli/render/details-text.ts",
];
/** Bundled bytes --help may read; the whole bundle is ~1.7 MB, catdoc --help needs ~170 KB (commander is most of it). */
const MAX_HELP_BYTES = 300 * 1024;

/** Runs the bin under core's load observer; a run that fails is the test's failure, with its stderr. */
async function helpLoads(bin: string, args: readonly string[]): Promise<BinRun> {
  const run = await runObserved(bin, args);
  if (run.code !== 0) throw new Error(`${args.join(" ")}: exit ${run.code} ${run.stderr}`);
  return run;
}

function heavySources(loaded: BinRun): string[] {
  return [...loaded.sources].filter(
    (source) => HEAVY_SOURCES.some((heavy) => source.startsWith(heavy)) && source !== "src/domain/errors.ts",
  );
}

describe("--help loads no heavy module", () => {
  it("catdoc --help and --version: commander and the CLI's light modules only", async () => {
    for (const args of [["--help"], ["--version"]]) {
      const loaded = await helpLoads(CLI, args);
      expect(loaded.stdout.length, args.join(" ")).toBeGreaterThan(0);
      expect([...loaded.packages], args.join(" ")).toEqual(["commander"]);
      expect(heavySources(loaded), args.join(" ")).toEqual([]);
      expect(loaded.bytes, args.join(" ")).toBeLessThan(MAX_HELP_BYTES);
    }
  });

  it.each(COMMANDS)("catdoc %s --help", async (command) => {
    const loaded = await helpLoads(CLI, [command, "--help"]);
    expect(loaded.stdout).toContain(`Usage: catdoc ${command}`);
    expect([...loaded.packages]).toEqual(["commander"]);
    expect(heavySources(loaded)).toEqual([]);
    expect(loaded.bytes).toBeLessThan(MAX_HELP_BYTES);
  });

  it("catdoc-mcp --help: no npm package at all", async () => {
    const loaded = await helpLoads(MCP, ["--help"]);
    expect(loaded.stdout).toContain("catdoc-mcp 0.1.0");
    expect(loaded.stdout).toContain("CATDOC_PROJECT_PATH");
    expect([...loaded.packages]).toEqual([]);
    expect(heavySources(loaded)).toEqual([]);
    expect(loaded.bytes).toBeLessThan(64 * 1024);
  });
});
