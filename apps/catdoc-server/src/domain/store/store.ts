/**
 * CatDocStore: reads a project (cached per version of its files) and changes category.yaml
 * safely. An edit takes the project's cross-process lock, reads the file and its sha256,
 * applies the caller's operations to the YAML document (comments and key order survive),
 * writes and flushes the result to a temporary file, and commits it (./commit.ts): category.yaml
 * is taken away by a rename, checked to be exactly what the edit read, and the new file linked in
 * with link(2), which fails if anyone created category.yaml meanwhile — so a program that saves
 * category.yaml without the lock (an editor) never has its save overwritten: the edit answers
 * CONFLICT instead. Any failure before the link writes nothing. Writers through the store never
 * lose each other's edits (the lock).
 *
 * Readers never lock. For microseconds during a commit category.yaml does not exist: a reader
 * that finds it missing waits for the commit's stash to come back, and restores the stash of a
 * process killed inside its commit (under the lock) — see {@link CatDocStore.readCurrent}.
 *
 * An edit may be cancelled (`signal`): the signal is checked between its steps and, last, in
 * the same synchronous step as the commit. Cancelled before it, the edit writes nothing and
 * leaves no temporary file and no lock; after it, the edit is complete.
 */
import { access, mkdir, readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { CatDocConflictError, CatDocNotFoundError, ProjectNotInitializedError } from "../errors.js";
import { parseProjectTexts } from "../project-parse.js";
import type { ParsedFrom, ProjectParseOptions } from "../project-parse.js";
import { contentVersion, readCategoryText, readConfigText } from "../project-files.js";
import { projectPaths } from "../paths.js";
import type { ProjectPaths } from "../paths.js";
import { CatDocProject } from "../project.js";
import { writeFileAtomic } from "@local-mcp/core/files";
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
import { commitCategoryFile, inspectMissing, restoreFromStash } from "./commit.js";
import type { CommitStep } from "./commit.js";
import type { CategoryEditor } from "./editor.js";
import { withProjectLock } from "./lock.js";
import type { LockOptions } from "./lock.js";

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

export interface StoreOptions {
  lock?: LockOptions;
  /**
   * Called synchronously after each step of a commit of category.yaml (./commit.ts). For tests
   * that act between the steps: an editor's save, a kill -9.
   */
  onCommitStep?: (step: CommitStep) => void;
  /** How projects are parsed: with the parsed-YAML cache in `.catdoc/cache/` (../parsed-cache.ts) unless `cache: false`. */
  parse?: ProjectParseOptions;
}

/** How long a reader waits for a live process's commit to bring category.yaml back before it reads the stash. */
const STASH_WAIT_MS = 2_000;
/** How long an empty category.yaml (an in-place save between its truncation and its write) is read again. */
const EMPTY_SETTLE_MS = 100;

export class CatDocStore {
  readonly paths: ProjectPaths;
  private readonly lockOptions: LockOptions;
  private readonly onCommitStep: ((step: CommitStep) => void) | undefined;
  private cached: { key: string; project: CatDocProject } | undefined;
  private parsing: { key: string; project: Promise<CatDocProject> } | undefined;
  private readonly parseOptions: ProjectParseOptions;
  /** How many projects this store built from the parsed-YAML cache, and from a parse of the YAML. */
  readonly parses: Record<ParsedFrom, number> = { cache: 0, yaml: 0 };
  /** Edits of this store run one after another (the file lock covers other stores/processes). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(root: string, options: StoreOptions = {}) {
    this.paths = projectPaths(root);
    this.lockOptions = options.lock ?? {};
    this.onCommitStep = options.onCommitStep;
    this.parseOptions = options.parse ?? {};
  }

  /** Whether category.yaml exists (or is inside a commit, or restored from one that was killed). */
  isInitialized(): Promise<boolean> {
    return this.initialized(false);
  }

  private async initialized(lockHeld: boolean): Promise<boolean> {
    const present = await access(this.paths.categoryFile).then(
      () => true,
      () => false,
    );
    return present || (await this.settleMissing(lockHeld)) !== "absent";
  }

  /** The project as it is on disk; reused while category.yaml and config.yaml are unchanged. */
  async load(): Promise<CatDocProject> {
    const { text, version } = await this.readCurrent(false);
    const configText = await readConfigText(this.paths);
    return this.projectFor(text, version, configText);
  }

  private static cacheKey(version: string, configText: string | null): string {
    return `${version}:${configText === null ? "-" : contentVersion(configText)}`;
  }

  /** The project of these texts: the one kept in memory, the one being parsed already, or a new one (../project-parse.ts). */
  private projectFor(text: string, version: string, configText: string | null): Promise<CatDocProject> {
    const key = CatDocStore.cacheKey(version, configText);
    if (this.cached?.key === key) return Promise.resolve(this.cached.project);
    if (this.parsing?.key === key) return this.parsing.project;
    const parsing = {
      key,
      project: parseProjectTexts(this.paths, text, version, configText, this.parseOptions)
        .then(({ project, parsedFrom }) => {
          this.parses[parsedFrom] += 1;
          this.cached = { key, project };
          return project;
        })
        .finally(() => {
          if (this.parsing === parsing) this.parsing = undefined;
        }),
    };
    this.parsing = parsing;
    return parsing.project;
  }

  /**
   * category.yaml's text and version. Found missing, it may be inside a commit (between the
   * take-over and the link: microseconds) — wait for it — or left stashed by a process killed
   * there — restore it, under the lock (`lockHeld`: the caller holds it already). Missing with no
   * stash: ProjectNotInitializedError.
   */
  private async readCurrent(lockHeld: boolean): Promise<{ text: string; version: string }> {
    // Each turn follows a commit that brought the file back; a few in a row are plenty.
    for (let turn = 0; ; turn += 1) {
      try {
        const read = await readCategoryText(this.paths);
        return read.text.length === 0 ? await this.settleEmpty(read) : read;
      } catch (error) {
        if (!(error instanceof ProjectNotInitializedError)) throw error;
        const state = await this.settleMissing(lockHeld);
        if (state === "absent" || turn >= 20) throw error;
        if (state !== "present") return state;
      }
    }
  }

  /**
   * An editor that saves in place truncates category.yaml, then writes it: read in between, the
   * file is empty, and an edit based on that moment would replace the save being written (its
   * write lands in the file the commit took away). So an empty file is read again, for up to
   * {@link EMPTY_SETTLE_MS}, until it has content; a file that stays empty is taken as it is.
   */
  private async settleEmpty(empty: { text: string; version: string }): Promise<{ text: string; version: string }> {
    const deadline = Date.now() + EMPTY_SETTLE_MS;
    for (let pause = 1; Date.now() < deadline; pause = Math.min(pause * 2, 20)) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      const again = await readCategoryText(this.paths).catch(() => undefined);
      if (again !== undefined && again.text.length > 0) return again;
    }
    return empty;
  }

  /**
   * Waits until a category.yaml found missing is back: a live commit's stash comes back by
   * itself (polled for up to {@link STASH_WAIT_MS}); a stash left by a process that is gone is
   * linked back under the project lock (so no writer takes the file over meanwhile, and two
   * restorers cannot both act). A live process stalled inside its commit for longer (stopped,
   * its lock taken over as stale): a reader reads its stash — the last committed version —
   * and a writer holding the lock restores it (that process's own link then fails: CONFLICT).
   */
  private async settleMissing(lockHeld: boolean): Promise<"present" | "absent" | { text: string; version: string }> {
    const file = this.paths.categoryFile;
    const deadline = Date.now() + STASH_WAIT_MS;
    let pause = 1;
    for (;;) {
      const state = inspectMissing(file);
      if (state.kind === "present" || state.kind === "absent") return state.kind;
      if (state.kind === "orphaned") {
        if (lockHeld) restoreFromStash(file);
        else await withProjectLock(this.paths, async () => restoreFromStash(file), this.lockOptions);
        continue;
      }
      if (Date.now() >= deadline) {
        if (lockHeld) {
          restoreFromStash(file, { includeLive: true });
          continue;
        }
        const bytes = await readFile(state.stash).catch(() => undefined);
        if (bytes !== undefined) return { text: bytes.toString("utf8"), version: contentVersion(bytes) };
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 50);
    }
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
    const { text, version } = await this.readCurrent(guard !== undefined);
    if (options.expectedVersion !== undefined && options.expectedVersion !== version) {
      throw new CatDocConflictError("category.yaml changed since it was read (version mismatch)", {
        expectedVersion: options.expectedVersion,
        actualVersion: version,
      });
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
    // "superseded" (a save replaced the new file right after it landed) is written too: the next read sees that save.
    await commitCategoryFile(this.paths.categoryFile, nextText, version, {
      ...(signal === undefined ? {} : { signal }),
      ...(guard === undefined ? {} : { assertLocked: () => guard.assertHeld() }),
      ...(this.onCommitStep === undefined ? {} : { afterStep: this.onCommitStep }),
    });
    this.cached = { key: CatDocStore.cacheKey(nextVersion, configText), project: next };
    return { result, written: true, previousVersion: version, version: nextVersion, changes, project: next };
  }

  /** Reads the project from `text` and runs the caller's operations on its document. */
  private async plan<R>(edit: EditFunction<R>, text: string, version: string) {
    const configText = await readConfigText(this.paths);
    const current = await this.projectFor(text, version, configText);
    // The editor and the yaml parser load with the first edit: a process that only reads takes its
    // project from the parsed-YAML cache without them (../parsed-cache.ts).
    const [{ CategoryEditor }, { parseYamlDocument }] = await Promise.all([import("./editor.js"), import("../yaml-positions.js")]);
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
    return new CatDocConflictError("category.yaml changed on disk while the edit read it; nothing was written", {
      expectedVersion: version,
      actualVersion: now ?? null,
    });
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
          const exists = await this.initialized(true);
          if (exists && options.force !== true) {
            throw new CatDocConflictError(`CatDoc project already initialized at '${root}'; use force to overwrite`, { root });
          }
          const name = options.projectName ?? basename(root);
          const { categoryTemplate, configTemplate } = await import("./templates.js");
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
