/** Markdown import (no MCP types): documents → objects, references → morphisms, in one edit. */
export { importDocuments } from "./import-documents.js";
export type { ImportRun } from "./import-documents.js";
export { MAX_IMPORT_FILES, discoverMarkdown } from "./discover.js";
export { extractReferences, firstHeading } from "./references.js";
export type { DocumentReference } from "./references.js";
export { REFERENCE_MORPHISM_NAME, referenceMorphismId } from "./plan-morphisms.js";
export { documentHash } from "./read-documents.js";
export type {
  ImportConflict,
  ImportOptions,
  ImportReport,
  ImportedObject,
  ProposedMorphism,
  ReferenceKind,
  SkippedDocument,
  UnresolvedReference,
} from "./types.js";
