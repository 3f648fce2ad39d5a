/**
 * The store's commit point (issue #13, item 11): a cancelled edit writes nothing and leaves no
 * lock or temporary file; the check against writers without the lock runs after the temporary
 * file is written and flushed, right before the commit. Each interleaving of the commit's steps
 * with an editor's save is in store-commit-steps.test.ts, a kill -9 between them in
 * store-commit-kill.test.ts; the attack through the real bin is
 * tests/security/test/catdoc-cancel-and-editor.test.ts.
 */
import { watch, writeFileSync } from "node:fs";
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CatDocNotFoundError, CatDocStore } from "../../src/domain/index.js";
import { importDocuments } from "../../src/domain/import/index.js";
import { copyExample, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

async function mathStore() {
  const root = await copyExample(await tempDir(), "math-docs");
  const store = new CatDocStore(root);
  const read = () => readFile(store.paths.categoryFile, "utf8");
  /** What .catdoc holds besides its two files: locks, lock candidates, temporary files, pins. */
  const leftovers = async () => (await readdir(store.paths.catdocDir)).filter((name) => name !== "category.yaml" && name !== "config.yaml");
  return { root, store, read, leftovers, original: await read() };
}

const lattices = { id: "lattices", title: "Lattices", domain: "mathematics" };

describe("a cancelled edit", () => {
  it("writes nothing, releases the lock and leaves no temporary file, whenever before the commit it is cancelled", async () => {
    const { store, read, leftovers, original } = await mathStore();
    const reason = new Error("cancelled by the client");
    await expect(store.addObject("algebra", lattices, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);

    // Cancelled while the edit works under the lock.
    const controller = new AbortController();
    const attempt = store.edit(
      async (editor) => {
        editor.addObject("algebra", lattices);
        controller.abort(reason);
        await new Promise((resolve) => setImmediate(resolve));
      },
      { signal: controller.signal },
    );
    await expect(attempt).rejects.toBe(reason);

    // Cancelled while the new text is being written to the temporary file: still before the commit.
    const late = new AbortController();
    const watcher = watch(store.paths.catdocDir, (_event, name) => {
      if (name !== null && name.endsWith(".tmp")) late.abort(reason);
    });
    try {
      await expect(store.addObject("algebra", lattices, { signal: late.signal })).rejects.toBe(reason);
    } finally {
      watcher.close();
    }
    expect(late.signal.aborted).toBe(true);
    expect(await read()).toBe(original);
    expect(await leftovers()).toEqual([]);

    // The lock was released each time: the next edit goes through.
    await store.addObject("algebra", lattices);
    expect(await read()).toContain("id: lattices");
    expect(await leftovers()).toEqual([]);
  });

  it("an import cancelled between its steps stops there and writes nothing", async () => {
    const { root, store, read, leftovers, original } = await mathStore();
    const controller = new AbortController();
    const reason = new Error("cancelled");
    const running = importDocuments(store, { paths: [join(root, "docs")], categoryId: "algebra" }, { signal: controller.signal });
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(await read()).toBe(original);
    expect(await leftovers()).toEqual([]);
  });
});

describe("the check against writers without the lock", () => {
  it("sees a save that lands while the new text is written and flushed (after the edit, before the rename): CONFLICT, the save kept", async () => {
    const { store, read, leftovers, original } = await mathStore();
    const saved = `${original}# saved by an editor while catdoc wrote its temporary file\n`;
    let savedAt: string | undefined;
    // The moment catdoc's temporary file appears, an editor saves category.yaml (without the lock).
    const watcher = watch(store.paths.catdocDir, (_event, name) => {
      if (savedAt === undefined && name !== null && name.endsWith(".tmp")) {
        savedAt = name;
        writeFileSync(store.paths.categoryFile, saved);
      }
    });
    try {
      await expect(store.addObject("algebra", lattices)).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining("changed on disk"),
      });
    } finally {
      watcher.close();
    }
    expect(savedAt).toBeDefined();
    expect(await read()).toBe(saved);
    expect(await leftovers()).toEqual([]);
    // Retried, the edit reads the editor's version and keeps it.
    await store.addObject("algebra", lattices);
    expect(await read()).toContain("# saved by an editor");
  });

  it("an edit that failed on a version no longer on disk answers CONFLICT, not its error about the old version", async () => {
    const { store, read } = await mathStore();
    const attempt = store.edit(async () => {
      await writeFile(store.paths.categoryFile, "categories:\n  - id: elsewhere\n    name: Elsewhere\n");
      throw new CatDocNotFoundError("category", "algebra");
    });
    await expect(attempt).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("while the edit read it") });
    expect(await read()).toContain("elsewhere");
    // Unchanged underneath, the edit's own error stands.
    await expect(store.addObject("nowhere", lattices)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
