/**
 * Both protocol eras through the built bin (`dist/mcp.js`): a 2025-11-25 handshake client
 * ("legacy") and a 2026-07-28 client ("modern", pinned: no fallback) each list and call every tool
 * and read every listed resource, over stdio and over `--http`. Build first:
 * `pnpm --filter @local-mcp/catdoc-server build`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { callEveryTool, readEveryResource, type ToolCase, withServerInEra } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { writeGeneratedProject } from "../src/testing/generate-project.js";
import { useTempDirs } from "./mcp/helpers.js";

const BIN = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
const tempDir = useTempDirs();
const ERAS = ["legacy", "modern"] as const;

/** A generated project (cat-0 with objects c0-o0..c0-o5, F0 and its twin, eta-0), a note to import, an empty folder. */
async function project(): Promise<string> {
  const root = await tempDir();
  await writeGeneratedProject(root, { objects: 6, morphisms: 10, functors: 1, naturalTransformations: 1, seed: 1 });
  await writeFile(join(root, "note.md"), "---\nid: note\ntitle: Note\n---\n# Note\nSee @c0-o1.\n");
  await mkdir(join(root, "fresh"));
  return root;
}

/** A cheap valid call of every tool (the writing ones write little: a dry run, a fresh folder, one review stamp, a dry-run edit). */
const CASES: Record<string, ToolCase> = {
  catdoc_init: { args: { directory: "fresh" } },
  catdoc_list_categories: { args: {} },
  catdoc_show_category: { args: { categoryId: "cat-0" } },
  catdoc_list_objects: { args: { limit: 5 } },
  catdoc_show_object: { args: { objectId: "c0-o3" } },
  catdoc_import_document: { args: { filePath: "note.md", categoryId: "cat-0", dryRun: true } },
  catdoc_list_morphisms: { args: { categoryId: "cat-0" } },
  catdoc_show_morphism: { args: { morphismId: "c0-m0" } },
  catdoc_validate: { args: {} },
  catdoc_validate_category: { args: { categoryId: "cat-0" } },
  catdoc_validate_functor: { args: { functorId: "F0" } },
  catdoc_validate_natural_transformation: { args: { id: "eta-0" } },
  catdoc_trace: { args: { sourceId: "c0-o3", targetId: "c0-o1" } },
  catdoc_coverage: { args: {} },
  catdoc_search: { args: { query: "vector" } },
  catdoc_list_functors: { args: {} },
  catdoc_show_functor: { args: { functorId: "F0" } },
  catdoc_list_natural_transformations: { args: {} },
  catdoc_show_natural_transformation: { args: { id: "eta-0" } },
  catdoc_get_graph: { args: {} },
  catdoc_review: { args: { ids: ["c0-m0"] } },
  catdoc_edit: { args: { op: "add", kind: "category", id: "edited", fields: { name: "Edited" }, dryRun: true } },
};

async function exercise(client: Client): Promise<void> {
  const outcomes = await callEveryTool(client, CASES);
  expect(outcomes).toHaveLength(22);
  expect(outcomes.find((o) => o.name === "catdoc_trace")?.structuredContent).toMatchObject({ found: true });
  const read = await readEveryResource(client);
  expect(read).toContain("catdoc://graph");
  expect(read).toContain("catdoc://categories/cat-0");
  expect(read).toContain("catdoc://objects/c0-o3");
}

describe.each(ERAS)("catdoc-mcp in the %s era", (era) => {
  // Over stdio the stdout must carry JSON-RPC only; either way the server must exit 0 (withServerInEra).
  it.each(["stdio", "http"] as const)(
    "over %s: lists and calls every tool, reads every resource",
    async (transport) => {
      const root = await project();
      await withServerInEra(
        { command: process.execPath, args: [BIN], env: { CATDOC_PROJECT_PATH: root, LOCAL_MCP_LOG_LEVEL: "warn" }, era, transport },
        exercise,
      );
    },
    60_000,
  );
});
