/** What a Markdown import is asked to do and what it reports. */

/** How a reference in a document was written. */
export type ReferenceKind = "@ref" | "wikilink" | "link";

export interface ImportOptions {
  /** Markdown files or directories (searched recursively), relative to the project root. */
  paths: readonly string[];
  /** The argument `paths` came from, named in errors about them (default `paths`). */
  pathField?: string;
  /** The category the documents become objects of. */
  categoryId: string;
  /** Create the category (named `createCategory.name`) when it does not exist yet. */
  createCategory?: { name: string };
  /** Domain for documents whose frontmatter names none (default: the project's import.defaultDomain). */
  domain?: string;
  /** Compute and return the plan; write nothing. */
  dryRun?: boolean;
  /** Overwrite title, domain, tags and document path of objects that already exist (see import-documents.ts). */
  force?: boolean;
}

/** One document that became (or would become) an object. */
export interface ImportedObject {
  id: string;
  /** The document, relative to the project root (with `/`). */
  path: string;
  title: string;
  domain: string;
}

export interface SkippedDocument {
  path: string;
  reason: string;
  /** The object id the document would have had, when one was read. */
  id?: string;
}

/** An existing object whose fields differ from its document; kept as it is without `force`. */
export interface ImportConflict {
  id: string;
  path: string;
  /** The fields that differ: title, domain, tags, content (inline content hides the file). */
  fields: string[];
  /** The values in category.yaml and in the document, per field. */
  current: Record<string, unknown>;
  imported: Record<string, unknown>;
}

/** A morphism for a reference from one document to another object of the category. */
export interface ProposedMorphism {
  id: string;
  name: string;
  source: string;
  target: string;
  reason: ReferenceKind;
}

export interface UnresolvedReference {
  /** The object whose document holds the reference. */
  source: string;
  /** The reference as written (`other-id`, `Some Page`, `./other.md`). */
  reference: string;
  kind: ReferenceKind;
  reason: string;
}

export interface ImportReport {
  categoryId: string;
  /** The category was created by this import. */
  categoryCreated: boolean;
  added: ImportedObject[];
  updated: ImportedObject[];
  unchanged: ImportedObject[];
  skipped: SkippedDocument[];
  conflicts: ImportConflict[];
  /** New morphisms (added to category.yaml unless dryRun). */
  proposedMorphisms: ProposedMorphism[];
  /** Ids of reference morphisms that already exist (from an earlier import). */
  existingMorphisms: string[];
  unresolved: UnresolvedReference[];
  /** What the caller should know about the result (functors that now miss mappings). */
  warnings: string[];
  /** Markdown files read. */
  documentsRead: number;
  dryRun: boolean;
  /** Whether category.yaml was replaced. */
  written: boolean;
  /** category.yaml's version (sha256) after the import. */
  version: string;
  /** One line per change applied (or planned, with dryRun). */
  changes: string[];
}
