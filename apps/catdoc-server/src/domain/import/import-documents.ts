/**
 * Markdown import: documents become objects of the categories they name (place-documents.ts),
 * their references morphisms (plan-morphisms.ts), and references across categories proposed
 * functor mappings (plan-proposals.ts), written into category.yaml through ONE store edit — so
 * the import is all or nothing (a failure writes nothing), holds the project's lock while it decides, and with
 * `dryRun` returns the same plan without writing. Paths outside the project root are refused
 * (FORBIDDEN) before anything is read. Each object points to its document with
 * `metadata.path`, which is how the document loader finds it (documents.ts). See
 * plan-objects.ts for what a re-import does with objects that exist already, and
 * plan-morphisms.ts for how references resolve.
 *
 * A `signal` cancels the import: it is checked between the steps (discovery, each batch of
 * reads, the plan, the write) so a cancelled import stops early, and last in the same
 * synchronous step as the rename of category.yaml (the store's commit point). Cancelled before
 * that point, the import writes nothing; once past it, the write is complete.
 */
import { ProjectNotInitializedError } from "../errors.js";
import type { CatDocProject } from "../project.js";
import type { CategoryEditor } from "../store/editor.js";
import type { CatDocStore } from "../store/store.js";
import { discoverMarkdown } from "./discover.js";
import type { FoundFile } from "./discover.js";
import { placeDocuments } from "./place-documents.js";
import { planMorphisms } from "./plan-morphisms.js";
import { normalizeDocumentPath, planObjects } from "./plan-objects.js";
import { planProposals } from "./plan-proposals.js";
import { readCandidate } from "./read-documents.js";
import type { ImportCandidate } from "./read-documents.js";
import type { ImportOptions, ImportReport, SkippedDocument } from "./types.js";

/** Files read at once. */
const READ_CONCURRENCY = 16;

async function readAll(files: readonly FoundFile[], signal: AbortSignal | undefined): Promise<ImportCandidate[]> {
  const out: ImportCandidate[] = [];
  for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
    signal?.throwIfAborted();
    out.push(...(await Promise.all(files.slice(i, i + READ_CONCURRENCY).map(readCandidate))));
  }
  return out;
}

/** Existing objects' documents, path → object id (as the document loader finds them). */
async function documentOwners(project: CatDocProject): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const document of (await project.documents()).byObject.values()) {
    if (document.path === null) continue;
    const path = normalizeDocumentPath(document.path);
    if (!owners.has(path)) owners.set(path, document.objectId);
  }
  return owners;
}

type Plan = Omit<ImportReport, "dryRun" | "written" | "version" | "changes" | "documentsRead">;

async function plan(
  editor: CategoryEditor,
  project: CatDocProject,
  candidates: readonly ImportCandidate[],
  skipped: readonly SkippedDocument[],
  options: ImportOptions,
  signal: AbortSignal | undefined,
): Promise<Plan> {
  const placement = placeDocuments(editor, candidates, options);
  const owners = await documentOwners(project);
  signal?.throwIfAborted();
  const objects = planObjects(candidates, {
    editor,
    project,
    placement: placement.byPath,
    domainOption: options.domain,
    force: options.force === true,
    documentOwners: owners,
  });
  const allSkipped = [...skipped, ...objects.skipped];
  const morphisms = planMorphisms(candidates, {
    editor,
    accepted: objects.accepted,
    documentOwners: owners,
    skippedIds: new Set(allSkipped.flatMap((s) => (s.id === undefined ? [] : [s.id]))),
  });
  const proposals = planProposals(editor, morphisms.crossings, options.applyProposals === true);
  const warnings: string[] = [];
  const touched = new Set([...objects.added.map((o) => o.categoryId), ...morphisms.proposed.map((m) => m.categoryId)]);
  for (const categoryId of touched) {
    const functors = editor.model.functors.filter((f) => f.sourceCategory === categoryId).map((f) => f.id);
    const added = objects.added.filter((o) => o.categoryId === categoryId).length;
    const linked = morphisms.proposed.filter((m) => m.categoryId === categoryId).length;
    if (functors.length > 0) {
      warnings.push(
        `Category '${categoryId}' is the source of functor(s) ${functors.map((id) => `'${id}'`).join(", ")}: map the ${added} new object(s) ` +
          `and ${linked} new morphism(s) in them, or validation reports FUNCTOR_UNMAPPED_OBJECT / FUNCTOR_UNMAPPED_MORPHISM.`,
      );
    }
  }
  const applied = proposals.filter((p) => p.status === "applied");
  if (applied.length > 0) {
    const functors = [...new Set(applied.map((p) => p.functorId))].map((id) => `'${id ?? ""}'`).join(", ");
    warnings.push(
      `${applied.length} object mapping(s) applied in functor(s) ${functors}: map the morphisms between those objects too, or validation reports FUNCTOR_UNMAPPED_MORPHISM.`,
    );
  }
  return {
    categoryId: placement.defaultCategory,
    categoryCreated: placement.created.length > 0,
    categoriesCreated: placement.created,
    warnings,
    added: objects.added,
    updated: objects.updated,
    unchanged: objects.unchanged,
    skipped: allSkipped,
    conflicts: objects.conflicts,
    proposedMorphisms: morphisms.proposed,
    existingMorphisms: morphisms.existing,
    unresolved: morphisms.unresolved,
    proposals,
  };
}

export interface ImportRun {
  /** Cancels the import (the client cancelled, the deadline passed); see the file comment. */
  signal?: AbortSignal;
}

export async function importDocuments(store: CatDocStore, options: ImportOptions, run: ImportRun = {}): Promise<ImportReport> {
  const { signal } = run;
  const dryRun = options.dryRun === true;
  signal?.throwIfAborted();
  if (!(await store.isInitialized())) throw new ProjectNotInitializedError(store.paths.root);
  const discovery = await discoverMarkdown(store.paths.root, options.paths, options.pathField);
  const candidates = await readAll(discovery.files, signal);
  signal?.throwIfAborted();
  const edit = await store.edit((editor, project) => plan(editor, project, candidates, discovery.skipped, options, signal), {
    dryRun,
    ...(signal === undefined ? {} : { signal }),
  });
  return {
    ...edit.result,
    documentsRead: candidates.length,
    dryRun,
    written: edit.written,
    version: edit.version,
    changes: edit.changes,
  };
}
