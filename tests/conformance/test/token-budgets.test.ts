/**
 * Token budgets of every list and search tool, measured through the real bins over stdio on
 * fixtures large enough to matter (see support/budget-fixtures.ts):
 *
 * 1. No response exceeds Claude Code's 25,000-token limit. core enforces it by construction: a
 *    result above the budget is replaced by RESOURCE_EXHAUSTED naming what would fit (see
 *    packages/core/src/response-budget.ts). The worst cases below ask for the most each tool
 *    allows at the full level; each answer fits, or is that error.
 * 2. The minimal level is at most 25% of the full level's tokens, for calls with default limits.
 * 3. Resources too: every page of resources/list and resources/templates/list (core pages them,
 *    at most 10,000 tokens a page) and every read of every listed resource (core splits a text
 *    above the budget into parts and refuses JSON above it, with RESOURCE_EXHAUSTED naming a
 *    tool). Every page is followed, every resource read (of catdoc's 2,000 generated objects, a
 *    sample that bounds the rest: see catdocReadSample), every part of a split one read. Every
 *    server answers resources/list; one without resources (solo-assets) must list none.
 *
 * 4. Every tool of every server at every level (catdoc on a 2,000-object project, local-model on
 *    25 of this repository's source files copied into a temporary root, solo-assets with 20 saved
 *    functions): each answer is at most 25,000 tokens, and minimal is at most 25% of full for every
 *    call whose minimal answer is over 120 tokens.
 *
 * Tool answers are counted in o200k tokens (gpt-tokenizer: the tokenizer core's budget counts with,
 * see packages/core/src/response-budget.ts) of the text content, the JSON a client shows the model.
 * Resource pages and parts are measured as core cuts them: chars/4 (`estimateJsonTokens`).
 * The measured figures are printed as a table at the end.
 */
import { delimiter, join } from "node:path";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { estimateJsonTokens } from "@local-mcp/core";
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import type { ReadResourceResult, Resource } from "@modelcontextprotocol/client";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  generateProject,
  indexThisRepository,
  repositoryFiles,
  saveSoloFunctions,
  writeGeneratedProject,
  writeGitHistory,
} from "./support/budget-fixtures.js";
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

/** One measured resources row: a listing (all its pages) or the reads of a server. */
interface ResourceRow {
  server: string;
  what: string;
  /** Pages or reads (parts included). */
  count: number;
  /** The largest page or read, in tokens. */
  largest: number;
  largestOf: string;
  note: string;
}

const resourceRows: ResourceRow[] = [];

/** A call whose minimal level must be at most 25% of its full level (default limits). */
interface RatioCase {
  tool: string;
  args: Record<string, unknown>;
  label?: string;
}

/** A call asking for the most the tool allows: every level must fit the budget or be withheld with RESOURCE_EXHAUSTED. */
type WorstCase = RatioCase;

interface EveryCase extends RatioCase {
  expectError?: string;
  /** Arguments that differ per level (a state-changing call, e.g. a new directory each time). */
  perLevel?: (level: Level) => Record<string, unknown>;
}

/** A call whose minimal answer is at most this many tokens is exempt from the 25% rule (page fields alone are ~50). */
const RATIO_FLOOR = 120;

function keyOf(server: string, c: RatioCase): string {
  return `${server} ${c.label ?? c.tool}`;
}

/**
 * Answers of read-only calls already measured, by server, call and level: an every-tool case that
 * repeats a ratio case (catdoc's lists, validations) is not asked again (~15 s on 2,000 objects).
 */
const measuredReads = new WeakMap<SpawnedStdioServer, Map<string, Answer>>();

async function cachedAnswer(server: SpawnedStdioServer, tool: string, args: Record<string, unknown>, level: Level): Promise<Answer> {
  const cache = measuredReads.get(server) ?? new Map<string, Answer>();
  measuredReads.set(server, cache);
  const key = JSON.stringify([tool, args, level]);
  const known = cache.get(key);
  if (known !== undefined) return known;
  const fresh = await answer(server, tool, args, level);
  cache.set(key, fresh);
  return fresh;
}

async function answer(server: SpawnedStdioServer, tool: string, args: Record<string, unknown>, level: Level): Promise<Answer> {
  const result = await server.client.callTool({ name: tool, arguments: { ...args, response_level: level } }, { timeout: 120_000 });
  const text = (result.content[0] as { text?: string } | undefined)?.text ?? "";
  const tokens = countTokens(text, { disallowedSpecial: new Set() });
  if (!result.isError) return { tokens };
  const code = (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code ?? "?";
  return { tokens, error: code };
}

async function answers(server: SpawnedStdioServer, tool: string, args: Record<string, unknown>): Promise<Record<Level, Answer>> {
  return {
    minimal: await cachedAnswer(server, tool, args, "minimal"),
    standard: await cachedAnswer(server, tool, args, "standard"),
    full: await cachedAnswer(server, tool, args, "full"),
  };
}

interface BudgetSuite {
  server: ServerUnderTest;
  /** Prepares fixtures in `dir`; returns the server's environment. */
  setup: (dir: string) => Promise<Record<string, string>>;
  /** Runs against the started server before the cases (e.g. saving functions). */
  populate?: (server: SpawnedStdioServer) => Promise<void>;
  /**
   * Set up, start and populate the server when the file starts, while the suites before it run
   * (mochi: indexing this repository in a child process; solo-assets: its 20 saves, waiting
   * mostly on ruff and mypy processes).
   */
  early?: boolean;
  ratio: (dir: string) => RatioCase[];
  worst: (dir: string) => WorstCase[];
  /**
   * A call of every tool the server lists (run after the ratio and worst cases, in order: the
   * state-changing ones last). `expectError` names the code a call must fail with at every level.
   */
  every: (server: SpawnedStdioServer, dir: string) => Promise<EveryCase[]>;
  /** Runs before the resources are measured (e.g. adding a long document). */
  beforeResources?: (server: SpawnedStdioServer, dir: string) => Promise<void>;
  /**
   * The listed resources to read, where reading each one would take minutes (default: every
   * one). A suite that narrows it says why no unread resource can be larger than one read, and
   * checks that premise in `expectRead`.
   */
  readSample?: (resources: readonly Resource[]) => Resource[];
  /** Checks one successful read (a part of a split resource included), with soft expectations. */
  expectRead?: (uri: string, result: ReadResourceResult) => void;
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
/** Where local-model's setup copies 25 of core's sources, in a root of their own. */
/**
 * 25 of core's sources spread evenly over all of them (every n-th in path order), so the sample
 * stands for core's code as a whole and does not turn into one new folder's files when a folder
 * early in the alphabet is added (the first 25 in path order became 13 one-export files of
 * src/code-analysis/).
 */
const SAMPLED_CORE_SOURCES = () => {
  const all = CORE_SOURCES();
  const step = Math.max(1, Math.floor(all.length / 25));
  return all.filter((_, i) => i % step === 0).slice(0, 25);
};
const COPIED_SOURCES = (dir: string) => SAMPLED_CORE_SOURCES().map((path) => join(dir, "sources", path.replaceAll("/", "__")));

const CATDOC_PROJECT = { objects: 2000, morphisms: 10_000, functors: 4, naturalTransformations: 2, seed: 7 };

/**
 * The document of each generated object of catdoc's large project, by resource URI: its inline
 * content (one sentence from the generator's small vocabulary), which is what a read answers.
 */
let catdocDocuments: Map<string, string> | undefined;
function catdocGeneratedDocuments(): Map<string, string> {
  catdocDocuments ??= new Map(
    generateProject(CATDOC_PROJECT).categories.flatMap((category) =>
      category.objects.map((object) => [`catdoc://objects/${encodeURIComponent(object.id)}`, object.content ?? ""]),
    ),
  );
  return catdocDocuments;
}

/** The generated objects with the longest reads (URI and document: the rest of a read's JSON is the same for all), read whatever the sample. */
const CATDOC_LONGEST = 20;
/** And every this-many-th listed resource. */
const CATDOC_STRIDE = 50;

/**
 * Which of catdoc's 2,000+ listed resources are read. All of them took ~2 minutes on a loaded
 * 2-core machine (~50 ms of the server's time a read, read one after another or 8 at a time
 * alike), yet 2,000 are the generated objects' documents: one sentence each, in the same
 * envelope, far below the budget. Read: every resource that is not a generated object (the
 * graph and each category — JSON, refused above the budget — and the ~100,000-token handbook,
 * split into parts); the 20 generated objects with the longest reads and every 50th listed
 * resource. `expectRead` checks each generated object read answers exactly its generated
 * document, so no unread one answers more than the longest read (the table prints its tokens).
 */
function catdocReadSample(resources: readonly Resource[]): Resource[] {
  const generated = catdocGeneratedDocuments();
  const longest = new Set(
    [...generated]
      .sort(([a, x], [b, y]) => b.length + y.length - (a.length + x.length) || a.localeCompare(b))
      .slice(0, CATDOC_LONGEST)
      .map(([uri]) => uri),
  );
  const sample = resources.filter((resource, i) => !generated.has(resource.uri) || longest.has(resource.uri) || i % CATDOC_STRIDE === 0);
  // The premise: the project the server lists is the generated one (plus what the test adds).
  expect(resources.filter((resource) => generated.has(resource.uri)).length, "generated objects listed").toBe(generated.size);
  return sample;
}

const SUITES: BudgetSuite[] = [
  {
    server: serverNamed("catdoc-mcp"),
    setup: async (dir) => {
      await writeGeneratedProject(dir, CATDOC_PROJECT);
      return { ...BASE_ENV, CATDOC_PROJECT_PATH: dir };
    },
    readSample: catdocReadSample,
    expectRead: (uri, result) => {
      const document = catdocGeneratedDocuments().get(uri);
      if (document === undefined) return;
      const first = result.contents[0];
      expect.soft(first !== undefined && "text" in first ? first.text : undefined, `${uri} answers its generated document`).toBe(document);
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
      { tool: "catdoc_trace", args: { sourceId: "c1-o7", direction: "backward" }, label: "catdoc_trace backward" },
      { tool: "catdoc_coverage", args: {} },
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
      {
        tool: "catdoc_trace",
        args: { sourceId: "c1-o7", direction: "backward", maxPaths: 100, maxDepth: 50 },
        label: "catdoc_trace backward",
      },
      { tool: "catdoc_coverage", args: { limit: 2000 } },
    ],
    every: async (server, dir) => {
      await Promise.all(LEVELS.map((level) => mkdir(join(dir, `fresh-${level}`))));
      await writeFile(
        join(dir, "imported.md"),
        "---\nid: imported-note\ntitle: Imported note\n---\n# Imported note\n\nSee @c0-o1 and @c0-o2.\n",
      );
      const morphisms = await server.client.callTool({
        name: "catdoc_list_morphisms",
        arguments: { categoryId: "cat-0", includeIdentities: false, limit: 1 },
      });
      const morphismId = (morphisms.structuredContent as { ids: string[] }).ids[0] ?? "";
      return [
        { tool: "catdoc_list_categories", args: {} },
        { tool: "catdoc_show_category", args: { categoryId: "cat-0" } },
        { tool: "catdoc_list_objects", args: {} },
        { tool: "catdoc_show_object", args: { objectId: "c0-o1" } },
        { tool: "catdoc_list_morphisms", args: {} },
        { tool: "catdoc_show_morphism", args: { morphismId } },
        { tool: "catdoc_validate", args: {} },
        { tool: "catdoc_validate_category", args: { categoryId: "cat-0" } },
        { tool: "catdoc_validate_functor", args: { functorId: "F0" } },
        { tool: "catdoc_validate_natural_transformation", args: { id: "eta-0" } },
        { tool: "catdoc_trace", args: { sourceId: "c0-o1", targetId: "c0-o7" } },
        { tool: "catdoc_coverage", args: {} },
        { tool: "catdoc_search", args: { query: "algebra topology" } },
        { tool: "catdoc_list_functors", args: {} },
        { tool: "catdoc_show_functor", args: { functorId: "F0" } },
        { tool: "catdoc_list_natural_transformations", args: {} },
        { tool: "catdoc_show_natural_transformation", args: { id: "eta-0" } },
        { tool: "catdoc_get_graph", args: {} },
        { tool: "catdoc_import_document", args: { filePath: "imported.md", categoryId: "cat-0", dryRun: true } },
        { tool: "catdoc_init", args: {}, perLevel: (level) => ({ directory: `fresh-${level}` }) },
        // A review writes: each level stamps a link of its own (never reviewed, so each is accepted).
        {
          tool: "catdoc_review",
          args: {},
          perLevel: (level) => ({ ids: [{ minimal: "c0-m0", standard: "c0-m1", full: "c0-m2" }[level]] }),
        },
        // An edit writes: each level adds a category of its own.
        {
          tool: "catdoc_edit",
          args: { op: "add", kind: "category", fields: { name: "Edited" } },
          perLevel: (level) => ({ id: `edited-${level}` }),
        },
      ];
    },
    // A document of ~100,000 tokens (in its own file, imported as an object): its resource comes in parts.
    beforeResources: async (server, dir) => {
      const lines = Array.from(
        { length: 5_000 },
        (_, i) => `Paragraph ${i}: how the categories, their functors and the documents behind them fit together.`,
      );
      await writeFile(join(dir, "handbook.md"), `---\nid: handbook\ntitle: Handbook\n---\n# Handbook\n\n${lines.join("\n")}\n`);
      const result = await server.client.callTool({
        name: "catdoc_import_document",
        arguments: { filePath: "handbook.md", categoryId: "cat-0" },
      });
      expect(result.isError, JSON.stringify(result.structuredContent)).not.toBe(true);
    },
  },
  {
    server: serverNamed("mochi-mcp"),
    setup: async (dir) => ({ ...BASE_ENV, MOCHI_CATALOG: await indexThisRepository(dir), MOCHI_MODEL: "" }),
    early: true,
    ratio: () => [
      { tool: "suggest_pattern", args: { goal: "custom error classes that carry an error code" } },
      {
        tool: "suggest_pattern",
        args: { goal: "register tools from definition objects in one loop", limit: 10 },
        label: "suggest_pattern limit 10",
      },
    ],
    worst: () => [
      { tool: "suggest_pattern", args: { goal: "a factory", context: "export function create() {}\n".repeat(700), limit: 10 } },
    ],
    // Without a model (MOCHI_MODEL empty) the model's tools answer NOT_READY, saying how to set one.
    every: async () => [
      { tool: "suggest_pattern", args: { goal: "custom error classes that carry an error code" } },
      { tool: "domain_query", args: { instruction: "How does a tool report an error?" }, expectError: "NOT_READY" },
      { tool: "complete_code", args: { prefix: "export function parse(" }, expectError: "NOT_READY" },
    ],
  },
  {
    server: serverNamed("local-model-mcp"),
    setup: async (dir) => {
      await writeGitHistory(join(dir, "repo"), 400, 120);
      await mkdir(join(dir, "state"));
      // 25 of this repository's source files, copied into a root of their own (every-tool cases).
      await mkdir(join(dir, "sources"));
      const copies = COPIED_SOURCES(dir);
      await Promise.all(SAMPLED_CORE_SOURCES().map((path, i) => copyFile(join(REPO_ROOT, path), copies[i] ?? "")));
      const roots = [REPO_ROOT.replace(/\/$/, ""), join(dir, "repo"), join(dir, "sources")];
      return { ...BASE_ENV, LOCAL_MODEL_ROOTS: roots.join(delimiter), LOCAL_MODEL_STATE_DIR: join(dir, "state") };
    },
    ratio: (dir) => {
      const ts = CORE_SOURCES().slice(0, 40);
      // local_analyze answers only the analysis asked for; on the 25 files copied by setup, as the
      // every-tool cases ask it, which then reuse these answers.
      const analyzed = COPIED_SOURCES(dir);
      const md = DOCUMENTS().slice(0, 30);
      const repo = join(dir, "repo");
      return [
        { tool: "local_extract", args: { task_type: "exports", files: ts }, label: "local_extract exports ×40" },
        { tool: "local_extract", args: { task_type: "imports", files: ts }, label: "local_extract imports ×40" },
        {
          tool: "local_extract",
          args: { task_type: "pattern_match", files: ts, extract: { patterns: ["export (async )?function \\w+"] } },
          label: "local_extract pattern_match ×40",
        },
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
        {
          tool: "local_extract",
          args: { task_type: "pattern_match", files: ts, extract: { patterns: ["."] } },
          label: "local_extract pattern_match '.' ×200",
        },
        {
          tool: "local_extract",
          args: { task_type: "structure", files: ALL_MARKDOWN().slice(0, 200) },
          label: "local_extract structure ×200",
        },
        { tool: "local_analyze", args: { task_type: "functions", files: ts }, label: "local_analyze functions ×200" },
        { tool: "local_git", args: { task_type: "log", repo: join(dir, "repo"), options: { limit: 1000 } }, label: "local_git log 1000" },
      ];
    },
    // The 25 source files copied by setup.
    every: async (_server, dir) => {
      const files = COPIED_SOURCES(dir);
      const repo = join(dir, "repo");
      return [
        ...(["exports", "imports", "structure"] as const).map((task_type) => ({
          tool: "local_extract",
          args: { task_type, files },
          label: `local_extract ${task_type} ×25`,
        })),
        {
          tool: "local_extract",
          args: { task_type: "pattern_match", files, extract: { patterns: ["export (async )?function \\w+"] } },
          label: "local_extract pattern_match ×25",
        },
        ...(["exports", "functions", "types", "dependencies"] as const).map((task_type) => ({
          tool: "local_analyze",
          args: { task_type, files },
          label: `local_analyze ${task_type} ×25`,
        })),
        {
          tool: "local_verify",
          args: { checks: files.map((file, i) => ({ id: `CHECK-${i}`, file, condition: { type: "contains", value: "export" } })) },
          label: "local_verify ×25",
        },
        ...(["status", "diff", "log", "changed_files"] as const).map((task_type) => ({
          tool: "local_git",
          args: {
            task_type,
            repo,
            ...(task_type === "status" ? {} : { options: { ref: "HEAD~50", ...(task_type === "log" ? { limit: 50 } : {}) } }),
          },
          label: `local_git ${task_type}`,
        })),
        {
          tool: "local_generate",
          args: { template: "# {{title}}\n\n{{body}}\n", variables: { title: "Budgets", body: "Every tool at every level." } },
        },
        // The model chores: no model here, so a coded NOT_READY saying how to configure one.
        ...(["commit_message", "review"] as const).map((task_type) => ({
          tool: "local_git",
          args: { task_type, repo },
          label: `local_git ${task_type}`,
          expectError: "NOT_READY",
        })),
        { tool: "local_ask", args: { question: "What does this module export?", files: files.slice(0, 1) }, expectError: "NOT_READY" },
      ];
    },
  },
  {
    server: serverNamed("solo-assets-mcp"),
    setup: async (dir) => ({ ...(await serverNamed("solo-assets-mcp").env(dir)) }),
    populate: (server) => saveSoloFunctions(server.client, 20),
    early: true,
    ratio: () => [
      { tool: "list_functions", args: {} },
      { tool: "search_functions", args: { query: "split text into words" } },
    ],
    worst: () => [
      { tool: "list_functions", args: { limit: 500 } },
      { tool: "search_functions", args: { query: "numbers", limit: 50 } },
    ],
    every: async () => [
      { tool: "search_functions", args: { query: "split text into words" } },
      { tool: "list_functions", args: {} },
      { tool: "get_function", args: { name: "median_1" } },
      { tool: "get_function_history", args: { name: "median_1" } },
      {
        tool: "save_function",
        args: {
          name: "clamp_value",
          code: 'def clamp_value(x: float, low: float, high: float) -> float:\n    """Clamp x into [low, high]."""\n    return max(low, min(high, x))\n',
          description: "Clamp a number into a range.",
          skip_tests: true,
        },
      },
      {
        tool: "delete_function",
        args: {},
        perLevel: (level) => ({ name: { minimal: "chunk_3", standard: "chunk_7", full: "chunk_11" }[level] }),
      },
      { tool: "export_function", args: { names: ["median_1", "slugify_2"], to: "exported" } },
    ],
  },
  {
    server: serverNamed("local-mcp-sample"),
    setup: async () => ({ ...BASE_ENV }),
    ratio: () => [],
    worst: () => [{ tool: "echo", args: { text: "long ".repeat(20_000) }, label: "echo 100,000 chars" }],
    every: async () => [
      { tool: "echo", args: { text: "every level" } },
      { tool: "wait", args: { ms: 10 } },
    ],
  },
];

/** Every page of a listing, following nextCursor. */
async function pagesOf<T extends { nextCursor?: string }>(list: (cursor?: string) => Promise<T>): Promise<T[]> {
  const pages: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 10_000);
  return pages;
}

const largestOf = <T>(items: readonly T[], size: (item: T) => number, name: (item: T) => string) =>
  items.reduce<{ tokens: number; name: string }>(
    (max, item) => (size(item) > max.tokens ? { tokens: size(item), name: name(item) } : max),
    { tokens: 0, name: "-" },
  );

interface Started {
  dir: string;
  server: SpawnedStdioServer;
}

const started = new Map<BudgetSuite, Promise<Started>>();
/** Seconds each suite's start took (printed with the table). */
const setupSeconds: string[] = [];

/** A suite's fixtures, its started server, populated: once per suite, whoever asks first. */
function start(suite: BudgetSuite): Promise<Started> {
  let starting = started.get(suite);
  if (starting === undefined) {
    starting = (async () => {
      const began = performance.now();
      const dir = await mkdtemp(join(tmpdir(), `budgets-${suite.server.name}-`));
      const env = await suite.setup(dir);
      const server = await spawnStdioServer({ command: SERVER_NODE, args: [suite.server.entry], env, cwd: dir, readyTimeoutMs: 60_000 });
      try {
        await suite.populate?.(server);
      } catch (error) {
        await server.close();
        throw error;
      }
      setupSeconds.push(
        `${suite.server.name} ${((performance.now() - began) / 1000).toFixed(1)} s${suite.early === true ? " (early)" : ""}`,
      );
      return { dir, server };
    })();
    started.set(suite, starting);
  }
  return starting;
}

beforeAll(() => {
  // Started now, awaited (and any failure reported) by the suite's own beforeAll.
  for (const suite of SUITES.filter((s) => s.early === true)) start(suite).catch(() => undefined);
});

describe.each(SUITES)("token budgets of $server.name", (suite) => {
  let dir: string;
  let server: SpawnedStdioServer;
  let ratioCases: RatioCase[] = [];
  let worstCases: WorstCase[] = [];

  beforeAll(async () => {
    ({ dir, server } = await start(suite));
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
      rows.push({
        server: suite.server.name,
        call: c.label ?? c.tool,
        answers: measured,
        ratio,
        verdict: ratio <= MAX_RATIO ? "ok" : "OVER",
      });
      for (const level of LEVELS) {
        expect.soft(measured[level].error, `${key} at ${level}`).toBeUndefined();
        expect.soft(measured[level].tokens, `${key} at ${level}`).toBeLessThanOrEqual(MAX_TOKENS);
      }
      expect.soft(measured.minimal.tokens, `${key}: minimal ≤ standard`).toBeLessThanOrEqual(measured.standard.tokens);
      expect.soft(measured.standard.tokens, `${key}: standard ≤ full`).toBeLessThanOrEqual(measured.full.tokens);
    }
    const over = rows
      .filter((r) => r.server === suite.server.name && r.verdict === "OVER")
      .map((r) => `${r.call} (${r.ratio?.toFixed(3)})`);
    expect(over, "minimal above 25% of full").toEqual([]);
  });

  it("the largest requests each tool allows stay within 25,000 tokens (or are withheld with RESOURCE_EXHAUSTED)", async () => {
    for (const c of worstCases) {
      const measured = await answers(server, c.tool, c.args);
      const withheld = LEVELS.filter((l) => measured[l].error !== undefined);
      rows.push({
        server: suite.server.name,
        call: `${c.label ?? c.tool} (largest)`,
        answers: measured,
        verdict: withheld.length === 0 ? "fits" : `withheld at ${withheld.join(", ")}`,
      });
      for (const level of LEVELS) {
        expect.soft(measured[level].tokens, `${c.label ?? c.tool} at ${level}`).toBeLessThanOrEqual(MAX_TOKENS);
        if (measured[level].error !== undefined)
          expect.soft(measured[level].error, `${c.label ?? c.tool} at ${level}`).toBe("RESOURCE_EXHAUSTED");
      }
    }
  });

  it("every tool at every level: each answer within 25,000 o200k tokens, and minimal at most 25% of full when above 120 tokens", async () => {
    const cases = await suite.every(server, dir);
    const { tools } = await server.client.listTools();
    expect(
      tools.map((t) => t.name).filter((name) => !cases.some((c) => c.tool === name)),
      `${suite.server.name}: tools without a case`,
    ).toEqual([]);
    const over: string[] = [];
    for (const c of cases) {
      const label = c.label ?? c.tool;
      const measured = {} as Record<Level, Answer>;
      for (const level of LEVELS) {
        const args = { ...c.args, ...c.perLevel?.(level) };
        measured[level] =
          c.perLevel === undefined ? await cachedAnswer(server, c.tool, args, level) : await answer(server, c.tool, args, level);
      }
      const failed = LEVELS.filter((l) => measured[l].error !== undefined);
      const ratio = failed.length === 0 ? measured.minimal.tokens / measured.full.tokens : undefined;
      const checked = ratio !== undefined && measured.minimal.tokens > RATIO_FLOOR;
      if (checked && ratio > MAX_RATIO) over.push(`${label} (${ratio.toFixed(3)}: ${measured.minimal.tokens} of ${measured.full.tokens})`);
      const verdict =
        failed.length > 0 ? `error at ${failed.join(", ")}` : !checked ? `minimal ≤ ${RATIO_FLOOR}` : ratio <= MAX_RATIO ? "ok" : "OVER";
      rows.push({ server: suite.server.name, call: `${label} (every tool)`, answers: measured, ratio, verdict });
      for (const level of LEVELS) {
        expect.soft(measured[level].tokens, `${label} at ${level}`).toBeLessThanOrEqual(MAX_TOKENS);
        expect.soft(measured[level].error, `${label} at ${level}`).toBe(c.expectError);
      }
    }
    expect(over, `${suite.server.name}: minimal above 25% of full`).toEqual([]);
  }, 240_000);

  it("every page of resources/list and resources/templates/list, and every read (each part of a split one; catdoc's generated objects sampled), stays within 25,000 tokens", async () => {
    const name = suite.server.name;
    await suite.beforeResources?.(server, dir);
    const tokens = (value: unknown) => estimateJsonTokens(JSON.stringify(value));
    // One page per request, as a client pages: the v2 client's listResources() and
    // listResourceTemplates() without a cursor walk every page and return them merged.
    const params = (cursor?: string) => (cursor === undefined ? {} : { cursor });
    const lists = await pagesOf((cursor) => server.client.request({ method: "resources/list", params: params(cursor) }));
    const templates = await pagesOf((cursor) => server.client.request({ method: "resources/templates/list", params: params(cursor) }));
    const resources = lists.flatMap((page) => page.resources);
    // A server without resources must still answer resources/list: with no resource, on pages
    // within the budget like any other (its templates, if any, are measured below too).
    if (suite.server.listsResources) expect(resources.length).toBeGreaterThan(0);
    else expect(resources, `${suite.server.name} lists no resource`).toEqual([]);
    expect(new Set(resources.map((r) => r.uri)).size, "each resource listed once").toBe(resources.length);
    const measurePages = (what: string, pages: readonly object[], entries: number) => {
      const largest = largestOf(pages, tokens, (page) => `page ${pages.indexOf(page) + 1}`);
      resourceRows.push({
        server: name,
        what,
        count: pages.length,
        largest: largest.tokens,
        largestOf: largest.name,
        note: `${entries} entries`,
      });
      for (const [i, page] of pages.entries()) expect.soft(tokens(page), `${name} ${what} page ${i + 1}`).toBeLessThanOrEqual(MAX_TOKENS);
    };
    measurePages("resources/list", lists, resources.length);
    measurePages(
      "resources/templates/list",
      templates,
      templates.reduce((n, page) => n + page.resourceTemplates.length, 0),
    );

    const reads: { uri: string; tokens: number }[] = [];
    const refused: { uri: string; tokens: number }[] = [];
    let split = 0;
    let parts = 0;
    const toRead = suite.readSample?.(resources) ?? resources;
    const started = performance.now();
    for (const resource of toRead) {
      let next: string | undefined = resource.uri;
      for (let part = 1; next !== undefined && part <= 1_000; part += 1) {
        const uri: string = next;
        next = undefined;
        try {
          const result: ReadResourceResult = await server.client.readResource({ uri }, { timeout: 120_000 });
          suite.expectRead?.(uri, result);
          reads.push({ uri, tokens: tokens(result) });
          next = (result.contents[0]?._meta?.["local-mcp/part"] as { next?: string } | undefined)?.next;
          if (part === 1 && next !== undefined) split += 1;
          if (part > 1 || next !== undefined) parts += 1;
        } catch (error) {
          const { code, message } = error as { code?: number; message?: string };
          // Above the budget and not split (JSON): refused with what to use instead; any other error fails.
          expect.soft(code, `${name} ${uri}: ${message}`).toBe(-32603);
          expect.soft(message, `${name} ${uri}`).toMatch(/RESOURCE_EXHAUSTED: .* above the 25000-token limit .*\. \S/);
          refused.push({ uri, tokens: estimateJsonTokens(message ?? "") });
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    for (const read of reads) expect.soft(read.tokens, `${name} read ${read.uri}`).toBeLessThanOrEqual(MAX_TOKENS);
    const largest = largestOf(
      reads,
      (r) => r.tokens,
      (r) => r.uri,
    );
    resourceRows.push({
      server: name,
      what: "resources/read",
      count: reads.length,
      largest: largest.tokens,
      largestOf: largest.name,
      note: `${toRead.length === resources.length ? "every one" : toRead.length} of ${resources.length} resources read in ${seconds.toFixed(1)} s, ${split} split (${parts} parts), ${refused.length} refused${
        refused.length > 0
          ? ` (${refused
              .map((r) => r.uri)
              .slice(0, 3)
              .join(", ")}${refused.length > 3 ? ", …" : ""}; error ~${Math.max(...refused.map((r) => r.tokens))} tokens)`
          : ""
      }`,
    });
    // Hundreds of reads (mochi: every resource; catdoc: its sample and a split document's parts)
    // on a loaded 2-core machine.
  }, 120_000);
});

afterAll(() => {
  const cell = (a: Answer) => `${a.tokens}${a.error ? ` ${a.error}` : ""}`;
  const lines = rows.map(
    (r) =>
      `${r.server.padEnd(16)} ${r.call.padEnd(44)} ${cell(r.answers.minimal).padStart(24)} ${cell(r.answers.standard).padStart(24)} ${cell(r.answers.full).padStart(24)} ${r.ratio === undefined ? "" : r.ratio.toFixed(3).padStart(6)}  ${r.verdict}`,
  );
  console.log(
    [
      `Token budgets (o200k tokens of the JSON text; limit ${MAX_TOKENS}, minimal ≤ ${MAX_RATIO * 100}% of full):`,
      `${"server".padEnd(16)} ${"call".padEnd(44)} ${"minimal".padStart(24)} ${"standard".padStart(24)} ${"full".padStart(24)} ${"ratio".padStart(6)}  verdict`,
      ...lines,
      "",
      `Resources (every page of each listing, every read or the suite's sample; tokens as above):`,
      `${"server".padEnd(16)} ${"what".padEnd(26)} ${"count".padStart(6)} ${"largest".padStart(8)}  largest of / notes`,
      ...resourceRows.map(
        (r) =>
          `${r.server.padEnd(16)} ${r.what.padEnd(26)} ${String(r.count).padStart(6)} ${String(r.largest).padStart(8)}  ${r.largestOf} — ${r.note}`,
      ),
      "",
      `Set-up (fixtures, server start, population; early ones run while the suites before them do): ${setupSeconds.join(", ")}`,
    ].join("\n"),
  );
});
