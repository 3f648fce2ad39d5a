/**
 * catdoc-mcp on a copy of examples/catdoc (13 documents, three categories, functors and a
 * natural transformation), with symlinks from its docs to a file outside the project.
 */
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { appEntry, linkOut, makeSandbox, writesOutside, REPO_ROOT } from "./sandbox.js";
import { BASE_ENV, CORE_DEFAULT_DEADLINE_MS, type FuzzTarget } from "./target.js";

const OBJECTS = [
  "req-notes",
  "req-offline",
  "req-search",
  "req-sync",
  "design-sync",
  "design-editor",
  "impl-store",
  "impl-app",
  "impl-sync",
];

export const catdocTarget: FuzzTarget = {
  name: "catdoc-mcp",
  short: "catdoc",
  entry: appEntry("catdoc-server"),
  strict: true,
  prepare: async (dir) => {
    const sandbox = await makeSandbox(dir);
    await cp(join(REPO_ROOT, "examples/catdoc"), sandbox.root, { recursive: true });
    await linkOut(sandbox, "docs/leak.md", "file");
    await linkOut(sandbox, "docs/leak-dir", "dir");
    return {
      env: { ...BASE_ENV, CATDOC_PROJECT_PATH: sandbox.root },
      cwd: sandbox.root,
      hints: {
        objectId: OBJECTS,
        sourceId: OBJECTS,
        targetId: OBJECTS,
        categoryId: ["requirements", "design", "implementation"],
        targetCategoryId: ["design", "implementation"],
        functorId: ["realize", "implement", "ship"],
        id: ["bundle"],
        morphismId: ["ref--req-sync--req-notes", "id-req-notes", "ref--impl-sync--impl-store"],
        domain: ["product", "architecture", "code"],
        filePath: ["docs", "docs/requirements", "docs/design/conflict-resolution.md", "docs/leak.md"],
        directory: ["sub", "docs/new"],
        query: ["offline sync", "search index", "editor"],
      },
      writeFields: new Set(["directory"]),
      sandbox: { outside: sandbox.outside },
      symlinkNames: ["docs/leak.md", "docs/leak-dir", "docs/leak-dir/secret.md"],
      sentinel: sandbox.sentinel,
      writesOutside: () => writesOutside(dir, sandbox),
      // catdoc sets no server default: core's 30 s, and 60 s for imports (catdoc-import-document.ts).
      deadlineMs: (tool) => (tool === "catdoc_import_document" ? 60_000 : CORE_DEFAULT_DEADLINE_MS),
      golden: [
        { tool: "catdoc_list_objects", arguments: {} },
        { tool: "catdoc_trace", arguments: { sourceId: "req-offline", targetId: "impl-store" } },
        { tool: "catdoc_search", arguments: { query: "offline sync", response_level: "full" } },
        { tool: "catdoc_validate", arguments: { response_level: "standard" } },
        { tool: "catdoc_show_functor", arguments: { functorId: "ship" } },
        { tool: "catdoc_import_document", arguments: { filePath: "docs", dryRun: true } },
        { tool: "catdoc_get_graph", arguments: { categoryId: "design" } },
      ],
    };
  },
};
