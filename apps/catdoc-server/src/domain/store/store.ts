/**
 * CatDocStore: reads a project (cached per version of its files) and changes category.yaml
 * safely. An edit takes the project's cross-process lock, reads the file and its sha256,
 * applies the caller's operations to the YAML document (comments and key order survive),
 * writes and flushes the result to a temporary file, and only then checks that category.yaml
 * still holds exactly the bytes it read (CONFLICT otherwise: someone wrote it without the
 * lock) and renames the temporary file over it in the same synchronous step — see
 * {@link StoreWriteCheck}. Any failure before the rename writes nothing. Writers through the
 * store never lose each other's edits; a writer outside the store (an editor saving the file)
 * is detected, or its save put back, except for a save that replaces the file in the
 * microseconds between the last check and the rename.
 *
 * An edit may be cancelled (`signal`): the signal is checked between its steps and, last, in
 * the same synchronous step as the rename — the commit point. Cancelled before it, the edit
 * writes nothing and leaves no temporary file and no lock; after it, the edit is complete.
 */
import { closeSync, fstatSync, linkSync, lstatSync, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import type { BigIntStats } from "node:fs";
import { access, mkdir, stat } from "node:fs/promises";
import { basename } from "node:path";
import { CatDocConflictError, CatDocNotFoundError, ProjectNotInitializedError } from "../errors.js";
import { contentVersion, projectFromText, readCategoryText, readConfigText } from "../load.js";
import { projectPaths } from "../paths.js";
import type { ProjectPaths } from "../paths.js";
import { CatDocProject } from "../project.js";
import { parseYamlDocument } from "../yaml-positions.js";
import { atomicWriteTempPath, errnoCode, writeFileAtomic } from "@local-mcp/core";
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
  /** Cancels the edit: before its commit point it writes nothing (the signal's reason is thrown). */
  signal?: AbortSignal;
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
  /** Cancels the initialization: before category.yaml is renamed into place it writes nothing. */
  signal?: AbortSignal;
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
      // A cancelled edit waiting its turn (here or for the lock) gives up as soon as it has it.
      options.signal?.throwIfAborted();
      if (!(await this.isInitialized())) throw new ProjectNotInitializedError(this.paths.root);
      return withProjectLock(
        this.paths,
        (guard) => {
          options.signal?.throwIfAborted();
          return this.apply(edit, options, guard);
        },
        this.lockOptions,
      );
    });
  }

  private async apply<R>(edit: EditFunction<R>, options: EditOptions, guard: { assertHeld(): void } | undefined): Promise<EditResult<R>> {
    const { signal } = options;
    const { text, version } = await readCategoryText(this.paths);
    if (options.expectedVersion !== undefined && options.expectedVersion !== version) {
      throw new CatDocConflictError("category.yaml changed since it was read (version mismatch)", { expectedVersion: options.expectedVersion, actualVersion: version });
    }
    const { result, editor, current, configText } = await this.plan(edit, text, version).catch(async (error: unknown) => {
      signal?.throwIfAborted();
      throw await this.conflictIfChanged(error, version);
    });
    signal?.throwIfAborted();
    const changes = [...editor.changes];
    const unchanged = { result, written: false, previousVersion: version, version, changes, project: current };
    if (!editor.changed) return unchanged;
    const nextText = editor.toString();
    if (options.dryRun === true) return { ...unchanged, preview: nextText };

    const nextVersion = contentVersion(nextText);
    // The editor's model is what it wrote to the document (tests check it equals a re-read of
    // the file), so the large file is not parsed a third time.
    const next = new CatDocProject(this.paths, editor.model, current.config, nextVersion);
    const check = new StoreWriteCheck(this.paths.categoryFile, version);
    try {
      await writeFileAtomic(this.paths.categoryFile, nextText, {
        ...(signal === undefined ? {} : { signal }),
        beforeRename: () => {
          guard?.assertHeld();
          check.assertUnchanged();
        },
      });
      check.afterRename(nextVersion);
    } finally {
      check.release();
    }
    this.cached = { key: CatDocStore.cacheKey(nextVersion, configText), project: next };
    return { result, written: true, previousVersion: version, version: nextVersion, changes, project: next };
  }

  /** Reads the project from `text` and runs the caller's operations on its document. */
  private async plan<R>(edit: EditFunction<R>, text: string, version: string) {
    const configText = await readConfigText(this.paths);
    const current = this.projectFor(text, version, configText);
    const editor = new CategoryEditor(parseYamlDocument(text, ".catdoc/category.yaml").doc, current.model, text);
    const result = await edit(editor, current);
    return { result, editor, current, configText };
  }

  /**
   * An edit that failed on a version of category.yaml that is no longer on disk (an editor
   * saved it meanwhile, maybe half-written when it was read) failed on stale input: CONFLICT,
   * so the caller retries on the new version, instead of an error about the old one.
   */
  private async conflictIfChanged(error: unknown, version: string): Promise<unknown> {
    if (error instanceof CatDocConflictError) return error;
    const now = await readCategoryText(this.paths).then(
      (read) => read.version,
      () => undefined,
    );
    if (now === version) return error;
    return new CatDocConflictError("category.yaml changed on disk while the edit read it; nothing was written", { expectedVersion: version, actualVersion: now ?? null });
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
          options.signal?.throwIfAborted();
          const exists = await this.isInitialized();
          if (exists && options.force !== true) {
            throw new CatDocConflictError(`CatDoc project already initialized at '${root}'; use force to overwrite`, { root });
          }
          const name = options.projectName ?? basename(root);
          const categoryText = categoryTemplate(name);
          // The commit point: cancelled before category.yaml is in place, init writes nothing.
          await writeFileAtomic(this.paths.categoryFile, categoryText, options.signal === undefined ? {} : { signal: options.signal });
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

/**
 * The compare-and-swap of a write through the store, against writers that do not take the lock
 * (an editor saving category.yaml). {@link assertUnchanged} is writeFileAtomic's last check, run
 * once the new text is flushed to its temporary file, in the same synchronous step as the
 * rename: category.yaml must still hold exactly the bytes the edit read (sha256 `version`) and
 * be the same file (inode, size, modification time) as the bytes were read from, else CONFLICT
 * and nothing is written. Its last act is to pin the file with a hard link (a temporary name);
 * link(2) waits for a rename in the folder that is under way, and fails if that rename replaced
 * the file (CONFLICT too). Then the rename follows at once.
 *
 * {@link afterRename} looks at the pinned file: if it is not the file that was checked (a save
 * landed between the check and the pin) or it was written since (an editor that saves in place
 * had it open), that save would be lost — so the pinned file is put back over category.yaml
 * with CONFLICT, its writer's later writes landing in the file everyone sees. What remains is a
 * save that replaces the file between link(2) and rename(2): microseconds, the platform's limit
 * without an atomic exchange of two names.
 */
export class StoreWriteCheck {
  private pin: string | undefined;
  private checked: BigIntStats | undefined;

  constructor(
    private readonly file: string,
    private readonly version: string,
  ) {}

  assertUnchanged(): void {
    let fd: number;
    try {
      fd = openSync(this.file, "r");
    } catch {
      throw this.conflict(null);
    }
    let read: BigIntStats;
    let bytes: Buffer;
    try {
      read = fstatSync(fd, { bigint: true });
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
    const version = contentVersion(bytes);
    if (version !== this.version) throw this.conflict(version);
    const now = lstatSync(this.file, { bigint: true, throwIfNoEntry: false });
    if (now === undefined || !sameFile(now, read)) throw this.conflict("changed while it was checked");
    this.checked = read;
    const pin = atomicWriteTempPath(this.file);
    try {
      linkSync(this.file, pin);
      this.pin = pin;
    } catch (error) {
      // ENOENT: the file was replaced (by a rename that link waited for) since it was checked.
      if (errnoCode(error) === "ENOENT") throw this.conflict("replaced while it was checked");
      // A file system without hard links: no pin, no check after the rename.
    }
  }

  /**
   * After the rename: puts the pinned file back over category.yaml, with CONFLICT, when it is a
   * save the rename would have lost (see the class comment) — unless category.yaml no longer
   * holds the text just written (someone saved again since: the newest save stays).
   */
  afterRename(writtenVersion: string): void {
    if (this.pin === undefined || this.checked === undefined) return;
    const pinned = lstatSync(this.pin, { bigint: true, throwIfNoEntry: false });
    if (pinned === undefined || sameFile(pinned, this.checked)) return;
    // Pin what is there now the same way (link waits for a rename under way): only the text just
    // written is replaced; a save made since is the newest and stays.
    const current = atomicWriteTempPath(this.file);
    try {
      linkSync(this.file, current);
    } catch {
      return;
    }
    try {
      if (contentVersion(readFileSync(current)) !== writtenVersion) return;
      renameSync(this.pin, this.file);
      this.pin = undefined;
    } finally {
      rmSync(current, { force: true });
    }
    throw new CatDocConflictError("category.yaml was saved by another program while this edit replaced it; its save was put back and this edit was not applied", {
      expectedVersion: this.version,
    });
  }

  /** Removes the pin (idempotent); call it whatever happened. */
  release(): void {
    if (this.pin === undefined) return;
    rmSync(this.pin, { force: true });
    this.pin = undefined;
  }

  private conflict(actualVersion: string | null): CatDocConflictError {
    return new CatDocConflictError("category.yaml changed on disk during the edit (saved by another program?); nothing was written", {
      expectedVersion: this.version,
      actualVersion,
    });
  }
}

function sameFile(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}
