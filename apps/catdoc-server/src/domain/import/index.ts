/** Markdown import (no MCP types): documents → objects, references → morphisms, in one edit. */
export { importDocuments } from "./import-documents.js";
export type { ImportRun } from "./import-documents.js";
export { MAX_IMPORT_FILES, discoverMarkdown } from "./discover.js";
export { extractReferences, firstHeading } from "./references.js";
export type { DocumentReference } from "./references.js";
export { REFERENCE_MORPHISM_NAME, referenceMorphismId } from "./plan-morphisms.js";
export { documentHash } from "./read-documents.js";
export { PLAIN_RELATION, relationMorphismId } from "./relations.js";
export type { Relation } from "./relations.js";
export { ImportCategoryMissingError, ImportCategoryNotFoundError, categoryNameFromId } from "./place-documents.js";
export type {
  CreatedCategory,
  ImportConflict,
  ImportOptions,
  ImportReport,
  ImportedObject,
  MappingProposal,
  Placement,
  ProposalStatus,
  ProposedMorphism,
  ReferenceKind,
  SkippedDocument,
  UnresolvedReference,
} from "./types.js";
