/**
 * Which category each imported document goes to, and which categories the import creates.
 *
 *  1. frontmatter `category: <id>` — that category;
 *  2. else frontmatter `domain: <id>` when a category has that id (the original tool's projects
 *     give documents the domain of their category: `domain: requirements`); any other domain
 *     stays only the object's domain;
 *  3. else the category argument;
 *  4. else the project's only category.
 *
 * A category that does not exist is created only when the caller asks (`createCategory`);
 * otherwise the import fails with NOT_FOUND before anything is written, naming the option that
 * creates it and the categories that exist. A document with no category to go to (no argument,
 * and none or several categories in the project) fails with INVALID_INPUT naming the argument.
 * A `domain:` never creates a category.
 */
import { CatDocError } from "../errors.js";
import type { CategoryEditor } from "../store/editor.js";
import type { ImportCandidate } from "./read-documents.js";
import type { CreatedCategory, ImportOptions, Placement } from "./types.js";

/** An import names a category that does not exist and was not asked to create it. */
export class ImportCategoryNotFoundError extends CatDocError {
  override readonly name = "ImportCategoryNotFoundError";
}

/** Documents name no category and the project has none, or several, to default to. */
export class ImportCategoryMissingError extends CatDocError {
  override readonly name = "ImportCategoryMissingError";
}

export interface PlacedDocument {
  categoryId: string;
  placedBy: Placement;
}

export interface DocumentPlacement {
  /** Document path → where it goes. */
  byPath: Map<string, PlacedDocument>;
  /** The category of documents that name none; null when every document names its own. */
  defaultCategory: string | null;
  created: CreatedCategory[];
}

const DEFAULT_SPELLING = { categoryId: "categoryId", createCategory: "createCategory: true" };

/** `test-cases` → `Test cases`. */
export function categoryNameFromId(id: string): string {
  const words = id.replace(/[-_.]+/g, " ").trim();
  return words === "" ? id : words.charAt(0).toUpperCase() + words.slice(1);
}

function listed(ids: readonly string[]): string {
  return ids.length > 20 ? `${ids.slice(0, 20).join(", ")} and ${ids.length - 20} more` : ids.join(", ");
}

/** Places every candidate, creating the categories asked for in `editor`; throws before any edit when one is refused. */
export function placeDocuments(editor: CategoryEditor, candidates: readonly ImportCandidate[], options: ImportOptions): DocumentPlacement {
  const spelling = options.spelling ?? DEFAULT_SPELLING;
  const existing = editor.model.categories.map((c) => c.id);
  const exists = new Set(existing);
  const create = options.createCategory !== undefined && options.createCategory !== false;
  const toCreate = new Map<string, CreatedCategory>();

  const unknown = (id: string, namedBy: string): never => {
    const action = `add ${spelling.createCategory} to create it`;
    const choice = existing.length === 0 ? "the project has no categories yet" : `or use one of: ${listed(existing)}`;
    throw new ImportCategoryNotFoundError(
      "NOT_FOUND",
      existing.length === 0
        ? `Category '${id}' not found (${namedBy}): ${choice}; ${action}`
        : `Category '${id}' not found (${namedBy}); ${action}, ${choice}`,
      {
        details: { kind: "category", id, existing: existing.slice(0, 20) },
        suggestion:
          existing.length === 0
            ? `The project has no categories yet: add ${spelling.createCategory} to create '${id}'.`
            : `Add ${spelling.createCategory} to create '${id}', or use one of: ${listed(existing)}.`,
      },
    );
  };
  const want = (id: string, category: CreatedCategory): void => {
    if (exists.has(id) || toCreate.has(id)) return;
    if (!create)
      unknown(
        id,
        category.reason === "argument" ? `given as ${spelling.categoryId}` : `named by the frontmatter of ${category.document ?? ""}`,
      );
    toCreate.set(id, category);
  };

  const argument = options.categoryId;
  if (argument !== undefined) {
    const name = typeof options.createCategory === "object" ? options.createCategory.name : categoryNameFromId(argument);
    want(argument, { id: argument, name, reason: "argument" });
  }
  for (const candidate of candidates) {
    if (candidate.category !== undefined) {
      want(candidate.category, {
        id: candidate.category,
        name: categoryNameFromId(candidate.category),
        reason: "frontmatter category",
        document: candidate.path,
      });
    }
  }
  const known = (id: string) => exists.has(id) || toCreate.has(id);
  const defaultCategory = argument ?? (existing.length === 1 ? (existing[0] ?? null) : null);
  const byPath = new Map<string, PlacedDocument>();
  const homeless: string[] = [];
  for (const candidate of candidates) {
    if (candidate.category !== undefined) byPath.set(candidate.path, { categoryId: candidate.category, placedBy: "frontmatter category" });
    else if (candidate.domain !== undefined && known(candidate.domain))
      byPath.set(candidate.path, { categoryId: candidate.domain, placedBy: "frontmatter domain" });
    else if (defaultCategory !== null)
      byPath.set(candidate.path, { categoryId: defaultCategory, placedBy: argument === undefined ? "only category" : "argument" });
    else homeless.push(candidate.path);
  }
  if (homeless.length > 0) {
    const which = `${homeless.length} document(s) name no category (${listed(homeless.slice(0, 3))}${homeless.length > 3 ? ", …" : ""})`;
    throw new ImportCategoryMissingError(
      "INVALID_INPUT",
      existing.length === 0
        ? `The project has no category yet and ${which}: give ${spelling.categoryId} with ${spelling.createCategory} to create one, or name one in each document's frontmatter (category: <id>)`
        : `The project has ${existing.length} categories and ${which}: give ${spelling.categoryId} (one of: ${listed(existing)}), or name one in each document's frontmatter (category: <id>)`,
      { details: { field: "categoryId", documents: homeless.slice(0, 20), existing: existing.slice(0, 20) } },
    );
  }
  for (const category of toCreate.values()) editor.addCategory({ id: category.id, name: category.name });
  return { byPath, defaultCategory, created: [...toCreate.values()] };
}
