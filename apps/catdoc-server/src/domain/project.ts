/**
 * A loaded CatDoc project: one version of category.yaml (its model and content hash) with its
 * settings. The lookups, the documents and the search index are built on first use and kept
 * with this object, so a caller that reuses the project (the store caches it per version)
 * builds each of them once per version of the file.
 */
import { basename } from "node:path";
import type { DocumentSet } from "./documents.js";
import type { CatDocModel } from "./model.js";
import type { ProjectPaths } from "./paths.js";
import { resolveSettings } from "./project-config.js";
import type { ProjectConfig, ProjectSettings } from "./project-config.js";
import { indexProject } from "./project-index.js";
import type { ProjectIndex } from "./project-index.js";
import type { ObjectSearchIndex, SearchOptions, SearchResult } from "./search.js";

export class CatDocProject {
  readonly paths: ProjectPaths;
  readonly model: CatDocModel;
  readonly config: ProjectConfig;
  /** sha256 (hex) of the category.yaml bytes this model was read from. */
  readonly version: string;
  readonly settings: ProjectSettings;
  private documentsPromise: Promise<DocumentSet> | undefined;
  private searchPromise: Promise<ObjectSearchIndex> | undefined;

  constructor(paths: ProjectPaths, model: CatDocModel, config: ProjectConfig, version: string) {
    this.paths = paths;
    this.model = model;
    this.config = config;
    this.version = version;
    this.settings = resolveSettings(config, basename(paths.root));
  }

  /** Lookups by id, source and target (built once). */
  get index(): ProjectIndex {
    return indexProject(this.model);
  }

  /** The document of each object (read once). Markdown and frontmatter parsing load with the first call. */
  documents(): Promise<DocumentSet> {
    this.documentsPromise ??= import("./documents.js").then(({ loadDocuments }) =>
      loadDocuments(this.paths, this.model, this.settings.documentRoots),
    );
    return this.documentsPromise;
  }

  /** The search index over objects and their documents (built once). */
  searchIndex(): Promise<ObjectSearchIndex> {
    // MiniSearch is loaded with the first search (a lazy chunk in the bundle), not with the project.
    this.searchPromise ??= Promise.all([this.documents(), import("./search.js")]).then(([documents, { ObjectSearchIndex }]) =>
      ObjectSearchIndex.build(this.model, documents),
    );
    return this.searchPromise;
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    return (await this.searchIndex()).search(query, options);
  }
}
