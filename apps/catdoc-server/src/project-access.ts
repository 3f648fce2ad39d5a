/**
 * How tools and resources reach the project: one CatDocStore per server, and the project loaded
 * through it on every call. The store re-reads category.yaml's bytes each time and reuses the
 * parsed project while its hash is unchanged, so edits by other processes (the CLI, an editor,
 * a second server) are seen by the next call, at the cost of one file read.
 */
import { stat } from "node:fs/promises";
import { CatDocStore, parseMarkdown, readInsideRoot, resolveInsideRoot } from "./domain/index.js";
import type { CatDocProject, ObjectDocument } from "./domain/index.js";

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
  readonly root: string;
  readonly store: CatDocStore;

  constructor(root: string) {
    this.store = new CatDocStore(root);
    this.root = this.store.paths.root;
  }

  /** The project as it is on disk now (NOT_FOUND "not initialized" when there is none). */
  load(): Promise<CatDocProject> {
    return this.store.load();
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
    const exists = await stat(absolute).then((info) => info.isFile(), () => false);
    if (!exists) return null;
    // Read through what was opened, confined to the root: a swap for a link after the checks is refused.
    const text = (await readInsideRoot(project.paths.root, absolute, { userPath: found.path })).toString("utf8");
    const parsed = parseMarkdown(text);
    return { origin: found.origin, path: found.path, text, frontmatter: parsed.frontmatter, body: parsed.body };
  }
}
