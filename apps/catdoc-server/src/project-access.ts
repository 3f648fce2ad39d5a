/**
 * How tools and resources reach the project: one CatDocStore per server, and the project loaded
 * through it on every call. The store re-reads category.yaml's bytes each time and reuses the
 * parsed project while its hash is unchanged, so edits by other processes (the CLI, an editor,
 * a second server) are seen by the next call, at the cost of one file read.
 *
 * The store (and with it yaml) is loaded on first use, not when the server is built: a client's
 * initialize and tools/list load none of the domain's heavy parts (issue #14, start fast).
 */
import { stat } from "node:fs/promises";
import type { CatDocProject, CatDocStore, ObjectDocument } from "./domain/index.js";
import { projectPaths, readInsideRoot, resolveInsideRoot } from "./domain/paths.js";

export interface FreshDocument {
  origin: ObjectDocument["origin"];
  /** Root-relative path; null for inline content. */
  path: string | null;
  /** The whole document as stored (frontmatter included). */
  text: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

export class ProjectAccess {
  /** The absolute project root (the store's `paths.root`). */
  readonly root: string;
  private storePromise: Promise<CatDocStore> | undefined;

  constructor(root: string) {
    this.root = projectPaths(root).root;
  }

  /** The one store of this server's project (loaded with the domain on first use). */
  store(): Promise<CatDocStore> {
    this.storePromise ??= import("./domain/store/store.js").then(({ CatDocStore }) => new CatDocStore(this.root));
    return this.storePromise;
  }

  /** The project as it is on disk now (NOT_FOUND "not initialized" when there is none). */
  async load(): Promise<CatDocProject> {
    return (await this.store()).load();
  }

  /**
   * The document of an object, read from disk now: where it lives comes from the project's
   * document index (built once per version of category.yaml), its text from the file itself,
   * so an edited document is seen at once. Null when the object has no document.
   */
  async document(project: CatDocProject, objectId: string): Promise<FreshDocument | null> {
    const found = (await project.documents()).byObject.get(objectId);
    if (found === undefined) return null;
    if (found.path === null) {
      const object = project.model.categories.flatMap((c) => c.objects).find((o) => o.id === objectId);
      const text = object?.content ?? "";
      return { origin: found.origin, path: null, text, frontmatter: found.frontmatter, body: found.body };
    }
    const absolute = await resolveInsideRoot(project.paths.root, found.path);
    const exists = await stat(absolute).then(
      (info) => info.isFile(),
      () => false,
    );
    if (!exists) return null;
    // Read through what was opened, confined to the root: a swap for a link after the checks is refused.
    const text = (await readInsideRoot(project.paths.root, absolute, { userPath: found.path })).toString("utf8");
    const { parseMarkdown } = await import("./domain/frontmatter.js");
    const parsed = parseMarkdown(text);
    return { origin: found.origin, path: found.path, text, frontmatter: parsed.frontmatter, body: parsed.body };
  }
}
