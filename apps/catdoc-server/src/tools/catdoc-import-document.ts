import { DESTRUCTIVE_IDEMPOTENT, eachAtLevel, lazySchema, LeveledResponse } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { CatDocInputError } from "../domain/errors.js";
import type { CatDocProject } from "../domain/index.js";
import type { ImportedObject } from "../domain/import/index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { limitInput } from "./support/paging.js";
import { MetadataOutput } from "./support/schemas.js";

const SHOWN = { defaultLimit: 100, maxLimit: 1000 };
/** The category an import into a project without categories creates. */
export const DEFAULT_IMPORT_CATEGORY = { id: "documents", name: "Documents" };

const ObjectItem = lazySchema(() =>
  z.object({ id: z.string(), path: z.string().optional(), title: z.string().optional(), domain: z.string().optional() }),
);

/** The category to import into: the one given, else the only one, else a new `documents`. */
async function chooseCategory(
  load: () => Promise<CatDocProject>,
  categoryId: string | undefined,
): Promise<{ id: string; create?: { name: string } }> {
  // Given, it is checked inside the import's edit, against the version the import writes over.
  if (categoryId !== undefined) return { id: categoryId };
  const project = await load();
  const ids = [...new Set(project.model.categories.map((c) => c.id))];
  if (ids.length === 1 && ids[0] !== undefined) return { id: ids[0] };
  if (ids.length === 0) return { id: DEFAULT_IMPORT_CATEGORY.id, create: { name: DEFAULT_IMPORT_CATEGORY.name } };
  throw new CatDocInputError(`The project has ${ids.length} categories; give categoryId (one of: ${ids.slice(0, 20).join(", ")})`, {
    field: "categoryId",
  });
}

const input = lazySchema(() =>
  z.object({
    filePath: z.string().min(1).describe("relative to the project root"),
    domain: z.string().min(1).optional().describe("for documents naming none"),
    categoryId: z.string().min(1).optional().describe("default: the only category, else a new one"),
    dryRun: z.boolean().optional().describe("plan only, write nothing"),
    force: z.boolean().optional().describe("overwrite existing objects' fields"),
    limit: limitInput("items per list in the report", SHOWN),
  }),
);

const output = lazySchema(() =>
  z.object({
    written: z.boolean(),
    dryRun: z.boolean(),
    categoryId: z.string(),
    categoryCreated: z.boolean(),
    counts: z.object({
      documentsRead: z.number().int(),
      added: z.number().int(),
      updated: z.number().int(),
      unchanged: z.number().int(),
      skipped: z.number().int(),
      conflicts: z.number().int(),
      proposedMorphisms: z.number().int(),
      existingMorphisms: z.number().int(),
      unresolved: z.number().int(),
      warnings: z.number().int(),
    }),
    added: z.array(ObjectItem()).optional(),
    updated: z.array(ObjectItem()).optional(),
    unchanged: z.array(ObjectItem()).optional(),
    skipped: z.array(z.object({ path: z.string(), reason: z.string(), id: z.string().optional() })).optional(),
    conflicts: z
      .array(
        z.object({
          id: z.string(),
          fields: z.array(z.string()),
          path: z.string().optional(),
          current: MetadataOutput().optional(),
          imported: MetadataOutput().optional(),
        }),
      )
      .optional(),
    proposedMorphisms: z
      .array(
        z.object({
          id: z.string(),
          source: z.string(),
          target: z.string(),
          name: z.string().optional(),
          reason: z.enum(["@ref", "wikilink", "link"]).optional(),
        }),
      )
      .optional(),
    unresolved: z
      .array(
        z.object({
          source: z.string(),
          reference: z.string(),
          kind: z.enum(["@ref", "wikilink", "link"]).optional(),
          reason: z.string().optional(),
        }),
      )
      .optional(),
    warnings: z
      .array(z.string())
      .optional()
      .describe("What to do next, e.g. functors out of the category that must map the new morphisms."),
    truncated: z.boolean().optional(),
    notice: z.string().optional(),
    version: z.string().optional(),
    changes: z.array(z.string()).optional(),
  }),
);

export function catdocImportDocumentTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_import_document",
    title: "Import Markdown documents",
    description:
      "Imports a Markdown file or directory into a category: each document becomes an object (frontmatter id, title, domain, tags) and its references (@id, [[link]], relative links) become morphisms. All or nothing; a re-import updates. Try dryRun first.",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: DESTRUCTIVE_IDEMPOTENT,
    // An import is asked for its report: without response_level it answers the lists and warnings
    // (standard); minimal is its counts, the warnings' too.
    responseLevel: "standard",
    timeoutMs: 60_000,
    handler: async ({ filePath, domain, categoryId, dryRun, force, limit }, { signal }) => {
      const category = await chooseCategory(() => project.load(), categoryId);
      // Cancelled (by the client, or at the deadline) before its commit point, the import writes nothing.
      const { importDocuments } = await import("../domain/import/import-documents.js");
      const report = await importDocuments(
        await project.store(),
        {
          paths: [filePath],
          pathField: "filePath",
          categoryId: category.id,
          ...(category.create ? { createCategory: category.create } : {}),
          ...(domain === undefined ? {} : { domain }),
          dryRun: dryRun === true,
          force: force === true,
        },
        { signal },
      );
      const cap = limit ?? SHOWN.defaultLimit;
      const lists = [
        report.added,
        report.updated,
        report.unchanged,
        report.skipped,
        report.conflicts,
        report.proposedMorphisms,
        report.unresolved,
      ];
      const truncated = lists.some((list) => list.length > cap);
      const first = <T>(list: readonly T[]) => list.slice(0, cap);
      const objectParts = (o: ImportedObject) => ({
        minimal: { id: o.id },
        standard: { path: o.path, title: o.title },
        full: { domain: o.domain },
      });
      return new LeveledResponse((level) => ({
        minimal: {
          written: report.written,
          dryRun: report.dryRun,
          categoryId: report.categoryId,
          categoryCreated: report.categoryCreated,
          counts: {
            documentsRead: report.documentsRead,
            added: report.added.length,
            updated: report.updated.length,
            unchanged: report.unchanged.length,
            skipped: report.skipped.length,
            conflicts: report.conflicts.length,
            proposedMorphisms: report.proposedMorphisms.length,
            existingMorphisms: report.existingMorphisms.length,
            unresolved: report.unresolved.length,
            warnings: report.warnings.length,
          },
        },
        // The lists and warnings behind the counts.
        standard: {
          warnings: report.warnings,
          added: eachAtLevel(level, first(report.added), objectParts),
          updated: eachAtLevel(level, first(report.updated), objectParts),
          unchanged: eachAtLevel(level, first(report.unchanged), objectParts),
          skipped: first(report.skipped),
          conflicts: eachAtLevel(level, first(report.conflicts), (c) => ({
            minimal: { id: c.id, fields: c.fields },
            standard: { path: c.path },
            full: { current: c.current, imported: c.imported },
          })),
          proposedMorphisms: eachAtLevel(level, first(report.proposedMorphisms), (m) => ({
            minimal: { id: m.id, source: m.source, target: m.target },
            standard: { name: m.name, reason: m.reason },
          })),
          unresolved: eachAtLevel(level, first(report.unresolved), (u) => ({
            minimal: { source: u.source, reference: u.reference },
            standard: { kind: u.kind, reason: u.reason },
          })),
          truncated,
          ...(truncated
            ? {
                notice: `Each list shows its first ${cap} items; counts has the totals. Raise limit (at most ${SHOWN.maxLimit}) to see more.`,
              }
            : {}),
        },
        full: { version: report.version, changes: first(report.changes) },
      }));
    },
  });
}
