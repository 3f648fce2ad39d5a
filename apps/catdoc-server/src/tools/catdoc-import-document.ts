import { DESTRUCTIVE_IDEMPOTENT, eachAtLevel, lazySchema, LeveledResponse } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import type { ImportedObject } from "../domain/import/index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { limitInput } from "./support/paging.js";
import { MetadataOutput } from "./support/schemas.js";

const SHOWN = { defaultLimit: 100, maxLimit: 1000 };
const SPELLING = { categoryId: "categoryId", createCategory: "createCategory: true" };
const KIND = ["@ref", "wikilink", "link"] as const;
const PLACED_BY = ["frontmatter category", "frontmatter domain", "argument", "only category"] as const;
const STATUS = ["applied", "proposed", "mapped", "conflict", "ambiguous", "no functor", "several functors"] as const;

const ObjectItem = lazySchema(() =>
  z.object({
    id: z.string(),
    categoryId: z.string().optional(),
    placedBy: z.enum(PLACED_BY).optional(),
    path: z.string().optional(),
    title: z.string().optional(),
    domain: z.string().optional(),
  }),
);

const input = lazySchema(() =>
  z.object({
    filePath: z.string().min(1).describe("relative to the project root"),
    domain: z.string().min(1).optional().describe("for documents naming none"),
    categoryId: z.string().min(1).optional().describe("for documents naming none; default: the only category"),
    createCategory: z.boolean().optional().describe("create missing categories"),
    applyProposals: z.boolean().optional().describe("write proposed functor mappings"),
    dryRun: z.boolean().optional().describe("plan only, write nothing"),
    force: z.boolean().optional().describe("overwrite existing objects' fields"),
    limit: limitInput("items per list in the report", SHOWN),
  }),
);

const output = lazySchema(() =>
  z.object({
    written: z.boolean(),
    dryRun: z.boolean(),
    categoryId: z.string().nullable(),
    categoryCreated: z.boolean(),
    categoriesCreated: z
      .array(z.object({ id: z.string(), name: z.string().optional(), reason: z.string().optional(), document: z.string().optional() }))
      .optional(),
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
      proposals: z.number().int(),
      categoriesCreated: z.number().int(),
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
          reason: z.enum(KIND).optional(),
          categoryId: z.string().optional(),
        }),
      )
      .optional(),
    unresolved: z
      .array(
        z.object({
          source: z.string(),
          reference: z.string(),
          kind: z.enum(KIND).optional(),
          reason: z.string().optional(),
        }),
      )
      .optional(),
    proposals: z
      .array(
        z.object({
          objectId: z.string(),
          image: z.string(),
          status: z.enum(STATUS),
          functorId: z.string().optional(),
          edit: z.string().optional(),
          from: z.string().optional(),
          to: z.string().optional(),
          relation: z.string().optional(),
          kind: z.enum(KIND).optional(),
          sourceCategory: z.string().optional(),
          targetCategory: z.string().optional(),
          note: z.string().optional(),
        }),
      )
      .optional()
      .describe("References across categories read as functor mappings (objectId ↦ image)."),
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
      "Imports a Markdown file or directory: documents become objects of the category their frontmatter names (else categoryId), references morphisms named by their verb, references across categories proposed functor mappings. All or nothing; re-import updates. Try dryRun first.",
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
    handler: async ({ filePath, domain, categoryId, createCategory, applyProposals, dryRun, force, limit }, { signal }) => {
      // Cancelled (by the client, or at the deadline) before its commit point, the import writes nothing.
      const { importDocuments } = await import("../domain/import/import-documents.js");
      const report = await importDocuments(
        await project.store(),
        {
          paths: [filePath],
          pathField: "filePath",
          ...(categoryId === undefined ? {} : { categoryId }),
          createCategory: createCategory === true,
          applyProposals: applyProposals === true,
          spelling: SPELLING,
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
        report.proposals,
      ];
      const truncated = lists.some((list) => list.length > cap);
      const first = <T>(list: readonly T[]) => list.slice(0, cap);
      const objectParts = (o: ImportedObject) => ({
        minimal: { id: o.id },
        standard: { categoryId: o.categoryId, placedBy: o.placedBy, path: o.path, title: o.title },
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
            proposals: report.proposals.length,
            categoriesCreated: report.categoriesCreated.length,
            warnings: report.warnings.length,
          },
        },
        // The lists and warnings behind the counts.
        standard: {
          warnings: report.warnings,
          categoriesCreated: report.categoriesCreated,
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
            standard: { name: m.name, reason: m.reason, categoryId: m.categoryId },
          })),
          unresolved: eachAtLevel(level, first(report.unresolved), (u) => ({
            minimal: { source: u.source, reference: u.reference },
            standard: { kind: u.kind, reason: u.reason },
          })),
          proposals: eachAtLevel(level, first(report.proposals), (p) => ({
            minimal: { objectId: p.objectId, image: p.image, status: p.status },
            standard: {
              ...(p.functorId === undefined ? {} : { functorId: p.functorId }),
              edit: p.edit,
              from: p.from,
              to: p.to,
              relation: p.relation,
            },
            full: { kind: p.kind, sourceCategory: p.sourceCategory, targetCategory: p.targetCategory, note: p.note },
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
