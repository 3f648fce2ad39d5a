/**
 * Authoring: one edit of category.yaml (add, update, remove, rename or map) through the store —
 * locked, atomic, comments and key order kept — and validated before it is saved. The project's
 * validator runs on the edited model; an error that was not there before is a law violation, and
 * the edit is refused with CONFLICT listing them, unless `force`. Errors that were there already
 * do not block an unrelated edit. Gaps — an object or morphism a functor does not map yet, a
 * missing component — are how a functor or a natural transformation is written one entry at a
 * time, so they do not block; the answer counts the new ones (`gaps`).
 */
import { CatDocError, CatDocInputError } from "../errors.js";
import type { CatDocProject } from "../project.js";
import { indexProject } from "../project-index.js";
import type { CatDocStore } from "../store/store.js";
import type { CategoryEditor } from "../store/editor.js";
import type { RenameKind, RenamedId } from "../store/edit-rename.js";
import { candidateImages } from "../validate/candidate-images.js";
import { GAP_CODES } from "../validate/issues.js";
import type { ValidationIssue } from "../validate/issues.js";
import { validateProject } from "../validate/validate.js";
import type { CatDocModel } from "../model.js";
import { checkedFields } from "./edit-request.js";
import type { EditKind, EditRequest } from "./edit-request.js";

export interface AuthoringOptions {
  /** Save even when the edit breaks a law (the violations are still reported). */
  force?: boolean;
  /** Apply to a copy and report; write nothing. */
  dryRun?: boolean;
  signal?: AbortSignal;
}

export interface AuthoringOutcome {
  written: boolean;
  dryRun: boolean;
  /** One line per change, in order. */
  changes: string[];
  /** The ids the changes name, each once. */
  ids: string[];
  /** Law violations the edit introduced (saved only with force). */
  violations: ValidationIssue[];
  /** New gaps (objects and morphisms left unmapped, components missing), and those whose candidates changed. */
  gaps: ValidationIssue[];
  /** Errors in the project after the edit, the old ones included. */
  errorsAfter: number;
  previousVersion: string;
  version: string;
}

const RENAME_KIND: Record<EditKind, RenameKind> = {
  category: "category",
  object: "object",
  morphism: "morphism",
  functor: "functor",
  nt: "naturalTransformation",
};

/**
 * The ids an issue names, as one key; `rename` maps old ids to new ones. A gap's key has its
 * message too (except across a rename), so a gap whose candidates changed (its endpoints were just
 * mapped) is reported again.
 */
function issueKey(issue: ValidationIssue, rename: ReadonlyMap<string, string>, withMessage: boolean): string {
  const at = (value: string | undefined) => (value === undefined ? null : (rename.get(value) ?? value));
  return JSON.stringify([
    issue.code,
    withMessage && GAP_CODES.has(issue.code) ? issue.message : null,
    at(issue.categoryId),
    at(issue.functorId),
    at(issue.naturalTransformationId),
    at(issue.objectId),
    at(issue.morphismId),
    issue.objectIds?.map(at) ?? null,
    issue.morphismIds?.map(at) ?? null,
  ]);
}

/** The errors of `after` that `before` did not have (as many times as they were not there). */
function newErrors(
  before: readonly ValidationIssue[],
  after: readonly ValidationIssue[],
  renamed: readonly RenamedId[],
): ValidationIssue[] {
  const rename = new Map(renamed);
  // A rename changes messages, not gaps: its keys leave them out.
  const withMessage = renamed.length === 0;
  const counts = new Map<string, number>();
  for (const issue of before) {
    const key = issueKey(issue, rename, withMessage);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const added: ValidationIssue[] = [];
  for (const issue of after) {
    const key = issueKey(issue, new Map(), withMessage);
    const left = counts.get(key) ?? 0;
    if (left > 0) counts.set(key, left - 1);
    else added.push(issue);
  }
  return added;
}

function need(value: string | undefined, what: string, request: EditRequest): string {
  if (value === undefined || value === "") throw new CatDocInputError(`${request.op} ${request.kind} needs ${what}`, { field: what });
  return value;
}

/** Maps `from` under the functor; for a morphism, only to one of its candidate images (the only one when `to` is omitted). */
function mapUnderFunctor(editor: CategoryEditor, request: EditRequest, force: boolean): void {
  const from = need(request.from, "from", request);
  const index = indexProject(editor.model);
  const functor = index.functors.get(request.id);
  const source = functor === undefined ? undefined : index.categories.get(functor.sourceCategory);
  const target = functor === undefined ? undefined : index.categories.get(functor.targetCategory);
  const morphism = source?.morphisms.get(from);
  if (functor === undefined || source === undefined || target === undefined || morphism === undefined) {
    editor.setFunctorMapping(request.id, from, need(request.to, "to", request));
    return;
  }
  const candidates = candidateImages(functor, source, target, morphism);
  const details = { functorId: functor.id, morphismId: from, ...candidates };
  if (candidates.kind === "unmapped-endpoint") {
    if (request.to !== undefined && force) {
      editor.setFunctorMapping(request.id, from, request.to);
      return;
    }
    throw new CatDocInputError(
      `Map object ${candidates.objectIds.map((id) => `'${id}'`).join(" and ")} under functor '${functor.id}' first: the images of '${from}'s endpoints decide what it may map to`,
      details,
    );
  }
  const list = candidates.ids.length === 0 ? "none" : candidates.ids.map((id) => `'${id}'`).join(", ");
  if (request.to === undefined) {
    const only = candidates.ids.length === 1 ? candidates.ids[0] : undefined;
    if (only === undefined) {
      throw new CatDocInputError(
        `Give 'to': morphism '${from}' has ${candidates.ids.length} candidate images under '${functor.id}' (${list})`,
        details,
      );
    }
    editor.setFunctorMapping(request.id, from, only);
    return;
  }
  if (!candidates.ids.includes(request.to) && !force) {
    throw new CatDocInputError(
      `'${request.to}' is not a candidate image of '${from}' under functor '${functor.id}': the candidates are ${list} (the arrows ${functor.objectMapping[morphism.source] ?? "?"} → ${functor.objectMapping[morphism.target] ?? "?"})`,
      details,
    );
  }
  editor.setFunctorMapping(request.id, from, request.to);
}

/** Which operations each optional part of a request belongs to: another is refused, never ignored. */
function checkParts(request: EditRequest): void {
  const { op, kind } = request;
  const entry = kind === "functor" || kind === "nt";
  const misplaced = [
    request.fields !== undefined && op !== "add" && op !== "update" ? "fields (add, update)" : undefined,
    request.newId !== undefined && op !== "rename" ? "newId (rename)" : undefined,
    request.from !== undefined && !(entry && (op === "map" || op === "remove")) ? "from (map; remove of a functor or nt entry)" : undefined,
    request.to !== undefined && op !== "map" ? "to (map)" : undefined,
    request.cascade !== undefined && op !== "remove" ? "cascade (remove)" : undefined,
  ].filter((part) => part !== undefined);
  if (misplaced.length > 0) {
    throw new CatDocInputError(`${op} ${kind} does not take ${misplaced.join(", ")}`, {
      fields: misplaced.map((part) => part.split(" ")[0]),
    });
  }
}

/** Applies the request to the editor; returns the ids it renamed. */
function applyRequest(editor: CategoryEditor, request: EditRequest, force: boolean): RenamedId[] {
  checkParts(request);
  const { op, kind, id } = request;
  if (op === "rename") return editor.rename(RENAME_KIND[kind], id, need(request.newId, "newId", request));
  if (op === "map") {
    if (kind === "functor") mapUnderFunctor(editor, request, force);
    else if (kind === "nt") editor.setComponent(id, need(request.from, "from", request), need(request.to, "to", request));
    else throw new CatDocInputError(`map applies to a functor or an nt, not a ${kind}`, { field: "kind" });
    return [];
  }
  const cascade = request.cascade === true ? { cascade: true } : {};
  if (op === "remove") {
    if (request.from !== undefined && kind === "functor") editor.setFunctorMapping(id, request.from, null);
    else if (request.from !== undefined && kind === "nt") editor.setComponent(id, request.from, null);
    else if (kind === "category") editor.removeCategory(id, cascade);
    else if (kind === "object") editor.removeObject(id, cascade);
    else if (kind === "morphism") editor.removeMorphism(id, cascade);
    else if (kind === "functor") editor.removeFunctor(id, cascade);
    else editor.removeNaturalTransformation(id);
    return [];
  }
  const fields = checkedFields(request);
  const str = (key: string) => fields[key] as string;
  const map = (key: string) => fields[key] as Record<string, string> | undefined;
  if (op === "add") {
    if (kind === "category") editor.addCategory({ id, name: str("name") });
    else if (kind === "object") {
      const { category, ...object } = fields;
      editor.addObject(String(category), { id, ...(object as { title: string; domain: string }) });
    } else if (kind === "morphism") {
      const { category, ...morphism } = fields;
      editor.addMorphismWithFields(String(category), { ...morphism, id });
    } else if (kind === "functor") {
      editor.addFunctor({
        id,
        name: str("name"),
        sourceCategory: str("sourceCategory"),
        targetCategory: str("targetCategory"),
        ...(map("objectMapping") === undefined ? {} : { objectMapping: map("objectMapping") }),
        ...(map("morphismMapping") === undefined ? {} : { morphismMapping: map("morphismMapping") }),
      });
    } else {
      editor.addNaturalTransformation({
        id,
        name: str("name"),
        sourceFunctor: str("sourceFunctor"),
        targetFunctor: str("targetFunctor"),
        ...(map("components") === undefined ? {} : { components: map("components") }),
      });
    }
    return [];
  }
  if (kind === "category") editor.updateCategory(id, fields);
  else if (kind === "object") editor.updateObject(id, fields);
  else if (kind === "morphism") editor.updateMorphism(id, fields);
  else if (kind === "functor") editor.updateFunctor(id, fields);
  else editor.updateNaturalTransformation(id, fields);
  return [];
}

/**
 * The errors of a model, kept while the model lives: the model an edit saves is the next
 * project's (store.ts builds it from the editor's model), so the next edit's "before" is free.
 */
const errorsOfModel = new WeakMap<CatDocModel, ValidationIssue[]>();

function errorsOf(model: CatDocModel): ValidationIssue[] {
  let errors = errorsOfModel.get(model);
  if (errors === undefined) {
    errors = validateProject(indexProject(model)).errors;
    errorsOfModel.set(model, errors);
  }
  return errors;
}

/** How many violations a refusal's message names. */
const NAMED = 3;
/** How many violations a refusal's details carry. */
const DETAILED = 20;

function lawViolation(violations: readonly ValidationIssue[]): CatDocError {
  const named = violations
    .slice(0, NAMED)
    .map((issue) => `${issue.code}: ${issue.message}`)
    .join("; ");
  const more = violations.length > NAMED ? ` (and ${violations.length - NAMED} more)` : "";
  return new CatDocError(
    "CONFLICT",
    `The edit would break ${violations.length === 1 ? "a law" : `${violations.length} laws`}: ${named}${more}. Nothing was written.`,
    {
      details: {
        reason: "law-violation",
        violations: violations.slice(0, DETAILED).map(({ code, message }) => ({ code, message })),
        totalViolations: violations.length,
      },
      suggestion: "Change the edit so the laws hold, or repeat it with force to save it anyway.",
    },
  );
}

/** Quoted ids in the change lines, each once, in order. */
function idsOf(changes: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const line of changes) for (const match of line.matchAll(/'([^']+)'/g)) if (match[1] !== undefined) ids.add(match[1]);
  return [...ids];
}

/** Runs one authoring edit: see the file comment. */
export async function applyEdit(store: CatDocStore, request: EditRequest, options: AuthoringOptions = {}): Promise<AuthoringOutcome> {
  const force = options.force === true;
  const outcome = await store.edit(
    (editor: CategoryEditor, project: CatDocProject) => {
      const renamed = applyRequest(editor, request, force);
      if (!editor.changed) return { violations: [], gaps: [], errorsAfter: errorsOf(project.model).length };
      const before = errorsOf(project.model);
      const after = errorsOf(editor.model);
      const added = newErrors(before, after, renamed);
      const violations = added.filter((issue) => !GAP_CODES.has(issue.code));
      if (violations.length > 0 && !force) throw lawViolation(violations);
      return { violations, gaps: added.filter((issue) => GAP_CODES.has(issue.code)), errorsAfter: after.length };
    },
    {
      ...(options.dryRun === true ? { dryRun: true } : {}),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  return {
    written: outcome.written,
    dryRun: options.dryRun === true,
    changes: outcome.changes,
    ids: idsOf(outcome.changes),
    ...outcome.result,
    previousVersion: outcome.previousVersion,
    version: outcome.version,
  };
}
