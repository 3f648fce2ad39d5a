/**
 * CatDocStore: reads a project (cached per version of its files) and changes category.yaml
 * safely. An edit takes the project's cross-process lock, reads the file and its sha256,
 * applies the caller's operations to the YAML document (comments and key order survive),
 * checks the result reads back, checks the file still has the hash it was read with (CONFLICT
 * otherwise: someone wrote it without the lock), and replaces it atomically. Any failure
 * before the rename writes nothing. Writers through the store never lose each other's edits;
 * a writer outside the store (an editor saving the file) is detected, except in the instant
 * between the final hash check and the rename.
 */
import { access, mkdir, stat } from "node:fs/promises";
import { basename } from "node:path";
import { CatDocConflictError, CatDocNotFoundError, ProjectNotInitializedError } from "../errors.js";
import { contentVersion, projectFromText, readCategoryText, readConfigText } from "../load.js";
import { projectPaths } from "../paths.js";
import type { ProjectPaths } from "../paths.js";
import { CatDocProject } from "../project.js";
import { parseYamlDocument } from "../yaml-positions.js";
import { writeFileAtomic } from "@local-mcp/core";
import type {
  AddObjectOptions,
  NewCategory,
  NewFunctor,
  NewMorphism,
  NewNaturalTransformation,
  NewObject,
  ObjectPatch,
  RemovalReport,
  RemoveOptions,
} from "./edit-inputs.js";
import { CategoryEditor } from "./editor.js";
import { withProjectLock } from "./lock.js";
import type { LockOptions } from "./lock.js";
import { categoryTemplate, configTemplate } from "./templates.js";

export interface EditOptions {
  /** Fail with CONFLICT unless category.yaml still has this version (sha256) when the edit starts. */
  expectedVersion?: string;
  /** Apply the operations to a copy and report them; write nothing. */
  dryRun?: boolean;
}

export interface EditResult<R> {
  /** What the edit function returned. */
  result: R;
  /** Whether category.yaml was replaced. */
  written: boolean;
  /** Version read before the edit. */
  previousVersion: string;
  /** Version after the edit (equal to `previousVersion` when nothing was written). */
  version: string;
  /** One line per change applied. */
  changes: string[];
  /** The project after the edit (before it, when nothing was written). */
  project: CatDocProject;
  /** With `dryRun`: the file text the edit would write. */
  preview?: string;
}

export interface InitOptions {
  /** Replace existing category.yaml and config.yaml. */
  force?: boolean;
  /** Name written to config.yaml (default: the root folder's name). */
  projectName?: string;
}

export interface InitResult {
  root: string;
  /** Files written, relative to the root. */
  files: string[];
  /** True when an existing project was replaced (force). */
  overwritten: boolean;
  version: string;
}

/**
 * The caller's part of an edit: operations on `editor`; `project` is the version being edited
 * (shared with other readers: read it, do not change it). Throwing aborts the edit unwritten.
 */
export type EditFunction<R> = (editor: CategoryEditor, project: CatDocProject) => R | Promise<R>;

export class CatDocStore {
  readonly paths: ProjectPaths;
  private readonly lockOptions: LockOptions;
  private cached: { key: string; project: CatDocProject } | undefined;
  /** Edits of this store run one after another (the file lock covers other stores/processes). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(root: string, options: { lock?: LockOptions } = {}) {
    this.paths = projectPaths(root);
    this.lockOptions = options.lock ?? {};
  }

  async isInitialized(): Promise<boolean> {
    return access(this.paths.categoryFile).then(
      () => true,
      () => false,
    );
  }

  /** The project as it is on disk; reused while category.yaml and config.yaml are unchanged. */
  async load(): Promise<CatDocProject> {
    const { text, version } = await readCategoryText(this.paths);
    const configText = await readConfigText(this.paths);
    return this.projectFor(text, version, configText);
  }

  private static cacheKey(version: string, configText: string | null): string {
    return `${version}:${configText === null ? "-" : contentVersion(configText)}`;
  }

  private projectFor(text: string, version: string, configText: string | null): CatDocProject {
    const key = CatDocStore.cacheKey(version, configText);
    if (this.cached?.key === key) return this.cached.project;
    const project = projectFromText(this.paths, text, version, configText);
    this.cached = { key, project };
    return project;
  }

  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Applies `edit` to category.yaml under the lock; see the file comment for the guarantees. */
  edit<R>(edit: EditFunction<R>, options: EditOptions = {}): Promise<EditResult<R>> {
    if (options.dryRun === true) return this.apply(edit, options, undefined);
    return this.serialize(async () => {
      if (!(await this.isInitialized())) throw new ProjectNotInitializedError(this.paths.root);
      return withProjectLock(this.paths, (guard) => this.apply(edit, options, guard), this.lockOptions);
    });
  }

  private async apply<R>(edit: EditFunction<R>, options: EditOptions, guard: { assertHeld(): void } | undefined): Promise<EditResult<R>> {
    const { text, version } = await readCategoryText(this.paths);
    if (options.expectedVersion !== undefined && options.expectedVersion !== version) {
      throw new CatDocConflictError("category.yaml changed since it was read (version mismatch)", { expectedVersion: options.expectedVersion, actualVersion: version });
    }
    const configText = await readConfigText(this.paths);
    const current = this.projectFor(text, version, configText);
    const editor = new CategoryEditor(parseYamlDocument(text, ".catdoc/category.yaml").doc, current.model, text);
    const result = await edit(editor, current);
    const changes = [...editor.changes];
    const unchanged = { result, written: false, previousVersion: version, version, changes, project: current };
    if (!editor.changed) return unchanged;
    const nextText = editor.toString();
    if (options.dryRun === true) return { ...unchanged, preview: nextText };

    const nextVersion = contentVersion(nextText);
    // The editor's model is what it wrote to the document (tests check it equals a re-read of
    // the file), so the large file is not parsed a third time.
    const next = new CatDocProject(this.paths, editor.model, current.config, nextVersion);
    const onDisk = await readCategoryText(this.paths);
    if (onDisk.version !== version) {
      throw new CatDocConflictError("category.yaml changed on disk during the edit; nothing was written", { expectedVersion: version, actualVersion: onDisk.version });
    }
    guard?.assertHeld();
    await writeFileAtomic(this.paths.categoryFile, nextText);
    this.cached = { key: CatDocStore.cacheKey(nextVersion, configText), project: next };
    return { result, written: true, previousVersion: version, version: nextVersion, changes, project: next };
  }

  /** Creates `.catdoc/` with category.yaml and config.yaml; CONFLICT if present unless `force`. */
  async init(options: InitOptions = {}): Promise<InitResult> {
    const root = this.paths.root;
    const rootInfo = await stat(root).catch(() => undefined);
    if (rootInfo === undefined || !rootInfo.isDirectory()) {
      throw new CatDocNotFoundError("file", root, { message: `Project directory '${root}' does not exist` });
    }
    await mkdir(this.paths.catdocDir, { recursive: true });
    return this.serialize(() =>
      withProjectLock(
        this.paths,
        async () => {
          const exists = await this.isInitialized();
          if (exists && options.force !== true) {
            throw new CatDocConflictError(`CatDoc project already initialized at '${root}'; use force to overwrite`, { root });
          }
          const name = options.projectName ?? basename(root);
          const categoryText = categoryTemplate(name);
          await writeFileAtomic(this.paths.categoryFile, categoryText);
          const files = [".catdoc/category.yaml"];
          const configExists = await access(this.paths.configFile).then(
            () => true,
            () => false,
          );
          if (!configExists || options.force === true) {
            await writeFileAtomic(this.paths.configFile, configTemplate(name));
            files.push(".catdoc/config.yaml");
          }
          this.cached = undefined;
          return { root, files, overwritten: exists, version: contentVersion(categoryText) };
        },
        this.lockOptions,
      ),
    );
  }

  // ---- single operations (each one edit) ------------------------------------------------------

  addCategory(category: NewCategory, options?: EditOptions): Promise<EditResult<void>> {
    return this.edit((editor) => editor.addCategory(category), options);
  }

  addObject(categoryId: string, object: NewObject, options?: EditOptions & AddObjectOptions): Promise<EditResult<void>> {
    return this.edit((editor) => editor.addObject(categoryId, object, options), options);
  }

  updateObject(objectId: string, patch: ObjectPatch, options?: EditOptions): Promise<EditResult<boolean>> {
    return this.edit((editor) => editor.updateObject(objectId, patch), options);
  }

  removeObject(objectId: string, options?: EditOptions & RemoveOptions): Promise<EditResult<RemovalReport>> {
    return this.edit((editor) => editor.removeObject(objectId, options), options);
  }

  addMorphism(categoryId: string, morphism: NewMorphism, options?: EditOptions): Promise<EditResult<void>> {
    return this.edit((editor) => editor.addMorphism(categoryId, morphism), options);
  }

  removeMorphism(morphismId: string, options?: EditOptions & RemoveOptions): Promise<EditResult<RemovalReport>> {
    return this.edit((editor) => editor.removeMorphism(morphismId, options), options);
  }

  addFunctor(functor: NewFunctor, options?: EditOptions): Promise<EditResult<void>> {
    return this.edit((editor) => editor.addFunctor(functor), options);
  }

  addNaturalTransformation(nt: NewNaturalTransformation, options?: EditOptions): Promise<EditResult<void>> {
    return this.edit((editor) => editor.addNaturalTransformation(nt), options);
  }
}
