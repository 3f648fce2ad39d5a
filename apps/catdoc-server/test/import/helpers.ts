/** Temporary projects for import tests. */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { CatDocStore } from "../../src/domain/index.js";

/** An initialized project with category `notes` (and `other` holding object `elsewhere`), and the given files. */
export async function notesProject(root: string, files: Record<string, string>) {
  const store = new CatDocStore(root);
  await store.init({ projectName: "notes" });
  await store.addCategory({ id: "notes", name: "Notes" });
  await store.addCategory({ id: "other", name: "Other" });
  await store.addObject("other", { id: "elsewhere", title: "Elsewhere", domain: "misc" });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const read = () => readFile(store.paths.categoryFile, "utf8");
  return { store, read };
}

export const NOTES = {
  "docs/alpha.md":
    "---\nid: alpha\ntitle: Alpha Note\ndomain: research\ntags: [one, two]\n---\n# Ignored heading\nSee @beta and [[Gamma Page]] and @elsewhere and @missing-one.\n",
  "docs/Beta Note.md": "# Beta From Heading\n\nLinks to [alpha](./alpha.md) and [[alpha]] and back to @alpha.\n",
  "docs/sub/gamma.md": "---\ntitle: Gamma Page\n---\nUp: [a](../alpha.md), out: [x](../../../outside.md), none: [n](./nothing.md)\n",
  "docs/readme.txt": "not markdown",
};
