/** What a Markdown import is asked to do and what it reports. */

/** How a reference in a document was written. */
export type ReferenceKind = "@ref" | "wikilink" | "link";

export interface ImportOptions {
  /** Markdown files or directories (searched recursively), relative to the project root. */
  paths: readonly string[];
  /** The argument `paths` came from, named in errors about them (default `paths`). */
  pathField?: string;
  /**
   * The category of documents whose frontmatter names none (`category:`, or a `domain:` that is
   * a category's id); default: the project's only category.
   */
  categoryId?: string;
  /**
   * Create the categories the import names that do not exist yet (the argument's, named
   * `createCategory.name` when given, and those of frontmatter `category:` keys). Without it an
   * unknown category is NOT_FOUND and nothing is written.
   */
  createCategory?: boolean | { name: string };
  /** Apply the functor mappings proposed for references across categories (see plan-proposals.ts). */
  applyProposals?: boolean;
  /** How the caller spells the options, for errors: `categoryId` / `--category <id>`, `createCategory: true` / `--create-category`. */
  spelling?: { categoryId: string; createCategory: string };
  /** Domain for documents whose frontmatter names none (default: the project's import.defaultDomain). */
  domain?: string;
  /** Compute and return the plan; write nothing. */
  dryRun?: boolean;
  /** Overwrite title, domain, tags and document path of objects that already exist (see import-documents.ts). */
  force?: boolean;
}

/** Why a document went to its category. */
export type Placement = "frontmatter category" | "frontmatter domain" | "argument" | "only category";

/** One document that became (or would become) an object. */
export interface ImportedObject {
  id: string;
  /** The document, relative to the project root (with `/`). */
  path: string;
  title: string;
  domain: string;
  categoryId: string;
  placedBy: Placement;
}

/** A category the import created (or would create). */
export interface CreatedCategory {
  id: string;
  name: string;
  /** What named it: the argument, or the frontmatter `category:` of `document`. */
  reason: "argument" | "frontmatter category";
  document?: string;
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

/** A morphism for a reference from one document to another object of its category. */
export interface ProposedMorphism {
  id: string;
  /** The relation: the verb before the reference (`covers`, `depends on`…), else `references`. */
  name: string;
  source: string;
  target: string;
  /** How the reference was written. */
  reason: ReferenceKind;
  categoryId: string;
}

/** What became of a functor mapping proposed for a reference across categories. */
export type ProposalStatus =
  /** Written (or, in a dry run, would be) with applyProposals. */
  | "applied"
  /** One functor joins the categories; applyProposals would write it. */
  | "proposed"
  /** The functor maps the object so already. */
  | "mapped"
  /** The functor maps the object to another image; changing it is left to the user. */
  | "conflict"
  /** References in this import give the object several images; a functor maps it to one. */
  | "ambiguous"
  /** No functor joins the categories: the edit creates one. */
  | "no functor"
  /** Several functors join the categories: the edit names them. */
  | "several functors";

/**
 * A reference from a document of one category to an object of another, read as an object
 * mapping of a functor between the two: `objectId` (in `sourceCategory`) ↦ `image` (in
 * `targetCategory`). Without a functor, one from the referenced category to the referring
 * one (requirements → tests for a test that covers a requirement) is proposed.
 */
export interface MappingProposal {
  /** The object whose document holds the reference (after a passive verb: the one it names). */
  from: string;
  /** The object of the other category it names. */
  to: string;
  relation: string;
  kind: ReferenceKind;
  functorId?: string;
  sourceCategory: string;
  targetCategory: string;
  objectId: string;
  image: string;
  status: ProposalStatus;
  /** The edit of category.yaml that applies it, as YAML paths and values. */
  edit: string;
  /** Why the status, in one sentence. */
  note: string;
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
  /** The category of documents that name none (the argument, else the only category); null when every document names its own. */
  categoryId: string | null;
  /** Some category was created by this import. */
  categoryCreated: boolean;
  categoriesCreated: CreatedCategory[];
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
  /** References across categories read as functor mappings. */
  proposals: MappingProposal[];
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
