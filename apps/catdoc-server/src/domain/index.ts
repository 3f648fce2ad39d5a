/**
 * The public surface of CatDoc's domain (no MCP types): model and loading, the identity rule,
 * validation, trace, documents and search, and the store that writes category.yaml safely.
 */
export {
  CatDocConflictError,
  CatDocError,
  CatDocForbiddenError,
  CatDocInputError,
  CatDocNotFoundError,
  CatDocParseError,
  ProjectNotInitializedError,
  formatIssue,
  isCatDocError,
} from "./errors.js";
export type { CatDocErrorCode, EntityKind, FileIssue } from "./errors.js";

export {
  CatDocModelSchema,
  CatDocObjectSchema,
  CategorySchema,
  FunctorSchema,
  MorphismSchema,
  NaturalTransformationSchema,
  morphismRef,
} from "./model.js";
export type { CatDocModel, CatDocObject, Category, Functor, Morphism, MorphismRef, NaturalTransformation } from "./model.js";

export { findIdentities, identityIdFor, isMarkedIdentity } from "./identity.js";

export { projectPaths, readInsideRoot, resolveInsideRoot } from "./paths.js";
export type { ProjectPaths } from "./paths.js";
export { DEFAULT_SETTINGS, ProjectConfigSchema, resolveSettings } from "./project-config.js";
export type { ProjectConfig, ProjectSettings } from "./project-config.js";
export {
  CATEGORY_FILE_LABEL,
  CONFIG_FILE_LABEL,
  contentVersion,
  loadProject,
  parseCategoryYaml,
  parseProjectConfig,
  projectFromText,
  readCategoryText,
  readConfigText,
} from "./load.js";
export { CatDocProject } from "./project.js";

export {
  arrowKey,
  categoryOfMorphism,
  categoryOfObject,
  hasArrow,
  indexProject,
  requireCategory,
  requireFunctor,
  requireMorphism,
  requireNaturalTransformation,
  requireObject,
} from "./project-index.js";
export type { CategoryIndex, Occurrence, ProjectIndex } from "./project-index.js";

export { VALIDATION_CHECKS, VALIDATION_CODES } from "./validate/issues.js";
export type {
  IssueIds,
  ValidationCode,
  ValidationErrorCode,
  ValidationIssue,
  ValidationReport,
  ValidationSummary,
  ValidationWarningCode,
} from "./validate/issues.js";
export { validateCategory, validateFunctor, validateNaturalTransformation, validateProject } from "./validate/validate.js";

export { DEFAULT_MAX_DEPTH, DEFAULT_MAX_PATHS, allSimplePathsIn, shortestPathIn, traceObjects } from "./trace/paths.js";
export type { TraceOptions, TracePath, TraceResult } from "./trace/paths.js";
export { traceAcross } from "./trace/across.js";
export type { CrossCategoryPath, CrossStep, CrossTraceOptions, CrossTraceResult } from "./trace/across.js";
export { traceBackward } from "./trace/backward.js";
export type { BackwardTraceOptions, BackwardTraceResult } from "./trace/backward.js";

export { computeCoverage, coverageUnder, functorCoverage, orphansOf } from "./coverage.js";
export type { CategoryCoverage, CoveragePercent, CoverageReport, CoverageStatus, FunctorCoverage, ObjectCoverage } from "./coverage.js";

export { frontmatterText, parseMarkdown, slugFromFileName } from "./frontmatter.js";
export type { MarkdownDocument } from "./frontmatter.js";
export { DOCUMENT_PATH_KEYS, MAX_DOCUMENT_BYTES, documentPathOf } from "./document-path.js";
export { loadDocuments } from "./documents.js";
export type { DocumentOrigin, DocumentProblem, DocumentSet, ObjectDocument } from "./documents.js";
export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, ObjectSearchIndex, tokenize } from "./search.js";
export type { SearchHit, SearchOptions, SearchResult } from "./search.js";

export { CatDocStore } from "./store/store.js";
export type { EditFunction, EditOptions, EditResult, InitOptions, InitResult } from "./store/store.js";
export { CategoryEditor } from "./store/editor.js";
export type {
  AddObjectOptions,
  NewCategory,
  NewFunctor,
  NewMorphism,
  NewNaturalTransformation,
  NewObject,
  ObjectPatch,
  RemovalReport,
  RemoveOptions,
  UpsertOutcome,
} from "./store/edit-inputs.js";
export type { LockOptions } from "./store/lock.js";
export { writeFileAtomic } from "@local-mcp/core";

export {
  currentDocumentHashes,
  findSuspectLinks,
  impactCounts,
  modelDocumentHashes,
  projectImpact,
  projectLinks,
  reviewLinks,
} from "./change-impact/index.js";
export type { ChangeImpact, ChangeLink, DocumentHash, ReviewOutcome, ReviewRequest, SuspectLink } from "./change-impact/index.js";
export {
  readValidationReport,
  readValidationTable,
  validationCacheFile,
  writeValidationReport,
  writeValidationTable,
} from "./validate/validation-cache.js";
export type { CachedTable, ValidationCacheKey } from "./validate/validation-cache.js";
