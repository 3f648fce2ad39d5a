import { DESTRUCTIVE, lazySchema, LeveledResponse, ToolError } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { CatDocConflictError } from "../domain/errors.js";
import { resolveInsideRoot } from "../domain/paths.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";

const input = lazySchema(() =>
  z.object({
    directory: z.string().min(1).optional().describe("default: the project root"),
    force: z.boolean().optional().describe("replace an existing project (destroys it)"),
    projectName: z.string().min(1).optional().describe("default: the folder's name"),
  }),
);

const output = lazySchema(() =>
  z.object({
    initialized: z.boolean(),
    root: z.string(),
    files: z.array(z.string()),
    overwritten: z.boolean(),
    projectName: z.string().optional(),
    servedByThisServer: z.boolean().optional(),
    version: z.string().optional(),
  }),
);

export function catdocInitTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_init",
    title: "Initialize a CatDoc project",
    description:
      "Creates an empty CatDoc project (.catdoc/category.yaml and config.yaml). Use once, when tools answer 'CatDoc project not initialized'; CONFLICT when one exists.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: DESTRUCTIVE,
    handler: async ({ directory, force, projectName }, { signal }) => {
      const root = directory === undefined ? project.root : await resolveInsideRoot(project.root, directory, "directory");
      const store = root === project.root ? await project.store() : new (await import("../domain/store/store.js")).CatDocStore(root);
      const result = await store
        .init({ force: force === true, signal, ...(projectName === undefined ? {} : { projectName }) })
        .catch((error: unknown) => {
          if (error instanceof CatDocConflictError) {
            throw new ToolError("CONFLICT", error.message, {
              suggestion:
                "The project exists: use it as it is, or call catdoc_init with force: true to replace category.yaml and config.yaml (their content is lost).",
              details: error.details,
            });
          }
          throw error;
        });
      const name = (await store.load()).settings.projectName;
      return new LeveledResponse(() => ({
        minimal: { initialized: true, root: result.root, files: result.files, overwritten: result.overwritten },
        standard: { projectName: name, servedByThisServer: result.root === project.root },
        full: { version: result.version },
      }));
    },
  });
}
