/**
 * Token budgets of every list and search tool, measured through the real bins over stdio on
 * fixtures large enough to matter (see support/budget-fixtures.ts):
 *
 * 1. No response exceeds Claude Code's 25,000-token limit. core enforces it by construction: a
 *    result above the budget is replaced by RESOURCE_EXHAUSTED naming what would fit (see
 *    packages/core/src/response-budget.ts). The worst cases below ask for the most each tool
 *    allows at the full level; each answer fits, or is that error.
 * 2. The minimal level is at most 25% of the full level's tokens, for calls with default limits.
 *
 * Tokens are estimated as core estimates them: the JSON text's length / 4 (`estimateJsonTokens`).
 * The measured figures are printed as a table at the end.
 */
import { delimiter, join } from "node:path";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { estimateJsonTokens } from "@local-mcp/core";
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexThisRepository, repositoryFiles, saveSoloFunctions, writeGeneratedProject, writeGitHistory } from "./support/budget-fixtures.js";
import { BASE_ENV, REPO_ROOT, SERVERS, SERVER_NODE, type ServerUnderTest } from "./support/servers.js";

const MAX_TOKENS = 25_000;
const MAX_RATIO = 0.25;
const LEVELS = ["minimal", "standard", "full"] as const;
type Level = (typeof LEVELS)[number];

interface Answer {
  tokens: number;
  error?: string;
}

interface Row {
  server: string;
  call: string;
  answers: Record<Level, Answer>;
  ratio?: number;
  verdict: string;
}

const rows: Row[] = [];

/** A call whose minimal level must be at most 25% of its full level (default limits). */
interface RatioCase {
  tool: string;
  args: Record<string, unknown>;
  label?: string;
}

/** A call asking for the most the tool allows: every level must fit the budget or be withheld with RESOURCE_EXHAUSTED. */
type WorstCase = RatioCase;

function keyOf(server: string, c: RatioCase): string {
  return `${server} ${c.label ?? c.tool}`;
}

async function answer(server: SpawnedStdioServer, tool: string, args: Record<string, unknown>, level: Level): Promise<Answer> {
  const result = (await server.client.callTool({ name: tool, arguments: { ...args, response_level: level } }, undefined, { timeout: 120_000 })) as CallToolResult;
  const text = (result.content[0] as { text?: string } | undefined)?.text ?? "";
  const tokens = estimateJsonTokens(text);
  if (!result.isError) return { tokens };
  const code = (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code ?? "?";
  return { tokens, error: code };
}

async function answers(server: SpawnedStdioServer, tool: string, args: Record<string, unknown>): Promise<Record<Level, Answer>> {
  return { minimal: await answer(server, tool, args, "minimal"), standard: await answer(server, tool, args, "standard"), full: await answer(server, tool, args, "full") };
}

interface BudgetSuite {
  server: ServerUnderTest;
  /** Prepares fixtures in `dir`; returns the server's environment. */
  setup: (dir: string) => Promise<Record<string, string>>;
  /** Runs against the started server before the cases (e.g. saving functions). */
  populate?: (server: SpawnedStdioServer) => Promise<void>;
  ratio: (dir: string) => RatioCase[];
  worst: (dir: string) => WorstCase[];
}

const serverNamed = (name: string): ServerUnderTest => {
  const found = SERVERS.find((s) => s.name === name);
  if (!found) throw new Error(`no server ${name}`);
  return found;
};

// This repository's files. The measured calls read core's sources and the CatDoc example documents
// (vendored, with frontmatter): parts that change rarely, so the ratios stay put; the largest
// requests read up to 200 files of every package.
const CORE_SOURCES = () => repositoryFiles("packages/core/src/**/*.ts");
const DOCUMENTS = () => repositoryFiles("apps/catdoc-server/test/fixtures/**/*.md");
const ALL_SOURCES = () => repositoryFiles("packages/*/src/**/*.ts", "apps/*/src/**/*.ts");
const ALL_MARKDOWN = () => repositoryFiles("*.md");

const SUITES: BudgetSuite[] = [
  {
    server: serverNamed("catdoc-mcp"),
    setup: async (dir) => {
      await writeGeneratedProject(dir, { objects: 2000, morphisms: 10_000, functors: 4, naturalTransformations: 2, seed: 7 });
      return { ...BASE_ENV, CATDOC_PROJECT_PATH: dir };
    },
    ratio: () => [
      { tool: "catdoc_list_categories", args: {} },
      { tool: "catdoc_list_objects", args: {} },
      { tool: "catdoc_list_morphisms", args: {} },
      { tool: "catdoc_list_functors", args: {} },
      { tool: "catdoc_list_natural_transformations", args: {} },
      { tool: "catdoc_search", args: { query: "algebra topology" } },
      { tool: "catdoc_get_graph", args: {} },
      { tool: "catdoc_validate", args: {} },
      { tool: "catdoc_validate_category", args: { categoryId: "cat-0" } },
      { tool: "catdoc_validate_functor", args: { functorId: "F0" } },
      { tool: "catdoc_validate_natural_transformation", args: { id: "eta-0" } },
      { tool: "catdoc_trace", args: { sourceId: "c0-o1", targetId: "c0-o7", findAll: true } },
    ],
    worst: () => [
      { tool: "catdoc_list_objects", args: { limit: 1000 } },
      { tool: "catdoc_list_morphisms", args: { limit: 1000 } },
      { tool: "catdoc_search", args: { query: "algebra", limit: 100 } },
      { tool: "catdoc_get_graph", args: { limit: 2000, edgeLimit: 10_000 } },
      { tool: "catdoc_validate", args: { limit: 1000 } },
      { tool: "catdoc_trace", args: { sourceId: "c0-o1", targetId: "c0-o7", findAll: true, maxPaths: 100, maxDepth: 50 } },
      { tool: "catdoc_show_category", args: { categoryId: "cat-0", limit: 1000 } },
      { tool: "catdoc_show_functor", args: { functorId: "F0", limit: 1000 } },
    ],
  },
  {
    server: serverNamed("mochi-mcp"),
    setup: async (dir) => ({ ...BASE_ENV, MOCHI_CATALOG: indexThisRepository(dir), MOCHI_MODEL: "" }),
    ratio: () => [
      { tool: "suggest_pattern", args: { goal: "custom error classes that carry an error code" } },
      { tool: "suggest_pattern", args: { goal: "register tools from definition objects in one loop", limit: 10 }, label: "suggest_pattern limit 10" },
    ],
    worst: () => [{ tool: "suggest_pattern", args: { goal: "a factory", context: "export function create() {}\n".repeat(700), limit: 10 } }],
  },
  {
    server: serverNamed("local-model-mcp"),
    setup: async (dir) => {
      await writeGitHistory(join(dir, "repo"), 400, 120);
      await mkdir(join(dir, "state"));
      return { ...BASE_ENV, LOCAL_MODEL_ROOTS: [REPO_ROOT.replace(/\/$/, ""), join(dir, "repo")].join(delimiter), LOCAL_MODEL_STATE_DIR: join(dir, "state") };
    },
    ratio: (dir) => {
      const ts = CORE_SOURCES().slice(0, 40);
      // local_analyze's full level carries every analysis at once: 25 files keep it under the budget.
      const analyzed = ts.slice(0, 25);
      const md = DOCUMENTS().slice(0, 30);
      const repo = join(dir, "repo");
      return [
        { tool: "local_extract", args: { task_type: "exports", files: ts }, label: "local_extract exports ×40" },
        { tool: "local_extract", args: { task_type: "imports", files: ts }, label: "local_extract imports ×40" },
        { tool: "local_extract", args: { task_type: "pattern_match", files: ts, extract: { patterns: ["export (async )?function \\w+"] } }, label: "local_extract pattern_match ×40" },
        { tool: "local_extract", args: { task_type: "structure", files: md }, label: "local_extract structure ×20" },
        { tool: "local_extract", args: { task_type: "frontmatter", files: md }, label: "local_extract frontmatter ×20" },
        { tool: "local_analyze", args: { task_type: "exports", files: analyzed }, label: "local_analyze exports ×25" },
        { tool: "local_analyze", args: { task_type: "functions", files: analyzed }, label: "local_analyze functions ×25" },
        { tool: "local_analyze", args: { task_type: "types", files: analyzed }, label: "local_analyze types ×25" },
        { tool: "local_analyze", args: { task_type: "dependencies", files: analyzed }, label: "local_analyze dependencies ×25" },
        { tool: "local_git", args: { task_type: "log", repo, options: { limit: 100 } }, label: "local_git log 100" },
        { tool: "local_git", args: { task_type: "status", repo }, label: "local_git status" },
        { tool: "local_git", args: { task_type: "changed_files", repo, options: { ref: "HEAD~200" } }, label: "local_git changed_files" },
        { tool: "local_git", args: { task_type: "diff", repo, options: { ref: "HEAD~200" } }, label: "local_git diff" },
      ];
    },
    worst: (dir) => {
      const ts = ALL_SOURCES().slice(0, 200);
      return [
        { tool: "local_extract", args: { task_type: "pattern_match", files: ts, extract: { patterns: ["."] } }, label: "local_extract pattern_match '.' ×200" },
        { tool: "local_extract", args: { task_type: "structure", files: ALL_MARKDOWN().slice(0, 200) }, label: "local_extract structure ×200" },
        { tool: "local_analyze", args: { task_type: "functions", files: ts }, label: "local_analyze functions ×200" },
        { tool: "local_git", args: { task_type: "log", repo: join(dir, "repo"), options: { limit: 1000 } }, label: "local_git log 1000" },
      ];
    },
  },
  {
    server: serverNamed("solo-assets-mcp"),
    setup: async (dir) => ({ ...(await serverNamed("solo-assets-mcp").env(dir)) }),
    populate: (server) => saveSoloFunctions(server.client, 16),
    ratio: () => [
      { tool: "list_functions", args: {} },
      { tool: "search_functions", args: { query: "split text into words" } },
    ],
    worst: () => [
      { tool: "list_functions", args: { limit: 500 } },
      { tool: "search_functions", args: { query: "numbers", limit: 50 } },
    ],
  },
  {
    server: serverNamed("local-mcp-sample"),
    setup: async () => ({ ...BASE_ENV }),
    ratio: () => [],
    worst: () => [{ tool: "echo", args: { text: "long ".repeat(20_000) }, label: "echo 100,000 chars" }],
  },
];

describe.each(SUITES)("token budgets of $server.name", (suite) => {
  let dir: string;
  let server: SpawnedStdioServer;
  let ratioCases: RatioCase[] = [];
  let worstCases: WorstCase[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `budgets-${suite.server.name}-`));
    const env = await suite.setup(dir);
    server = await spawnStdioServer({ command: SERVER_NODE, args: [suite.server.entry], env, cwd: dir, readyTimeoutMs: 60_000 });
    await suite.populate?.(server);
    ratioCases = suite.ratio(dir);
    worstCases = suite.worst(dir);
  });

  afterAll(async () => {
    server?.assertCleanStdout();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("every list and search tool: each level fits the budget, and minimal is at most 25% of full", async () => {
    for (const c of ratioCases) {
      const measured = await answers(server, c.tool, c.args);
      const ratio = measured.minimal.tokens / measured.full.tokens;
      const key = keyOf(suite.server.name, c);
      rows.push({ server: suite.server.name, call: c.label ?? c.tool, answers: measured, ratio, verdict: ratio <= MAX_RATIO ? "ok" : "OVER" });
      for (const level of LEVELS) {
        expect.soft(measured[level].error, `${key} at ${level}`).toBeUndefined();
        expect.soft(measured[level].tokens, `${key} at ${level}`).toBeLessThanOrEqual(MAX_TOKENS);
      }
      expect.soft(measured.minimal.tokens, `${key}: minimal ≤ standard`).toBeLessThanOrEqual(measured.standard.tokens);
      expect.soft(measured.standard.tokens, `${key}: standard ≤ full`).toBeLessThanOrEqual(measured.full.tokens);
    }
    const over = rows.filter((r) => r.server === suite.server.name && r.verdict === "OVER").map((r) => `${r.call} (${r.ratio?.toFixed(3)})`);
    expect(over, "minimal above 25% of full").toEqual([]);
  });

  it("the largest requests each tool allows stay within 25,000 tokens (or are withheld with RESOURCE_EXHAUSTED)", async () => {
    for (const c of worstCases) {
      const measured = await answers(server, c.tool, c.args);
      const withheld = LEVELS.filter((l) => measured[l].error !== undefined);
      rows.push({ server: suite.server.name, call: `${c.label ?? c.tool} (largest)`, answers: measured, verdict: withheld.length === 0 ? "fits" : `withheld at ${withheld.join(", ")}` });
      for (const level of LEVELS) {
        expect.soft(measured[level].tokens, `${c.label ?? c.tool} at ${level}`).toBeLessThanOrEqual(MAX_TOKENS);
        if (measured[level].error !== undefined) expect.soft(measured[level].error, `${c.label ?? c.tool} at ${level}`).toBe("RESOURCE_EXHAUSTED");
      }
    }
  });
});

afterAll(() => {
  const cell = (a: Answer) => `${a.tokens}${a.error ? ` ${a.error}` : ""}`;
  const lines = rows.map(
    (r) =>
      `${r.server.padEnd(16)} ${r.call.padEnd(44)} ${cell(r.answers.minimal).padStart(24)} ${cell(r.answers.standard).padStart(24)} ${cell(r.answers.full).padStart(24)} ${r.ratio === undefined ? "" : r.ratio.toFixed(3).padStart(6)}  ${r.verdict}`,
  );
  console.log(
    [
      `Token budgets (chars/4 of the JSON text; limit ${MAX_TOKENS}, minimal ≤ ${MAX_RATIO * 100}% of full):`,
      `${"server".padEnd(16)} ${"call".padEnd(44)} ${"minimal".padStart(24)} ${"standard".padStart(24)} ${"full".padStart(24)} ${"ratio".padStart(6)}  verdict`,
      ...lines,
    ].join("\n"),
  );
});
