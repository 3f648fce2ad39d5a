/**
 * The commit of category.yaml (src/domain/store/commit.ts) against an editor that saves without
 * catdoc's lock, one test per interleaving of its table: the editor acts at a chosen point
 * between the commit's steps (the store's `onCommitStep`, called synchronously there), by
 * rename (a new file over category.yaml), in place by path, or in place through a descriptor it
 * opened before the commit. In every case the editor's newest save is what category.yaml holds
 * afterwards, and an edit that did not land answers CONFLICT. Readers that meet category.yaml
 * missing (inside a commit, or left stashed by a killed one) are at the end; the kill -9 itself is
 * store-commit-kill.test.ts.
 */
import { spawn } from "node:child_process";
import { closeSync, ftruncateSync, linkSync, lstatSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { readFile, readdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CatDocStore, contentVersion } from "../../src/domain/index.js";
import type { CommitStep } from "../../src/domain/store/commit.js";
import { withProjectLock } from "../../src/domain/store/lock.js";
import { copyExample, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();
const lattices = { id: "lattices", title: "Lattices", domain: "mathematics" };

const NOTHING_WRITTEN = "changed on disk during the edit";
const PUT_BACK = "its save was put back";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function mathProject() {
  const root = await copyExample(await tempDir(), "math-docs");
  const probe = new CatDocStore(root);
  const file = probe.paths.categoryFile;
  const original = await readFile(file, "utf8");
  const read = () => readFile(file, "utf8");
  /** What .catdoc holds besides its two files: locks, temporary files, stashes. */
  const leftovers = async () => (await readdir(probe.paths.catdocDir)).filter((name) => name !== "category.yaml" && name !== "config.yaml");
  /** A store whose commit runs `act` once, right after `step`. */
  const storeActingAt = (step: CommitStep, act: () => void, more: Partial<Record<CommitStep, () => void>> = {}) => {
    const done = new Set<CommitStep>();
    const actions: Partial<Record<CommitStep, () => void>> = { ...more, [step]: act };
    return new CatDocStore(root, {
      onCommitStep: (at) => {
        const action = actions[at];
        if (action === undefined || done.has(at)) return;
        done.add(at);
        action();
      },
    });
  };
  return { root, file, original, read, leftovers, storeActingAt, catdocDir: probe.paths.catdocDir };
}

/** An editor's save by rename: a new file over category.yaml. */
function saveByRename(file: string, text: string): void {
  const temp = `${file}.editor-save`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** An editor that saves in place and opened category.yaml before the commit began. */
function openedEditor(file: string) {
  const fd = openSync(file, "r+");
  closers.push(() => closeSync(fd));
  return {
    save(text: string) {
      ftruncateSync(fd, 0);
      writeSync(fd, text, 0);
    },
    truncate() {
      ftruncateSync(fd, 0);
    },
    append(text: string, at: number) {
      writeSync(fd, text, at);
    },
  };
}

describe("an editor's save at each point of the commit", () => {
  it("before the take-over, by rename: CONFLICT, nothing written, the save stands", async () => {
    const { file, original, read, leftovers, storeActingAt } = await mathProject();
    const theirs = `${original}# saved by rename before the take-over\n`;
    const store = storeActingAt("checked-before", () => saveByRename(file, theirs));
    await expect(store.addObject("algebra", lattices)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(NOTHING_WRITTEN),
    });
    expect(await read()).toBe(theirs);
    expect(await leftovers()).toEqual([]);
  });

  it("before the take-over, in place by path: CONFLICT, the saved file (same inode) put back", async () => {
    const { file, original, read, leftovers, storeActingAt } = await mathProject();
    const inode = lstatSync(file).ino;
    const theirs = `${original}# saved in place before the take-over\n`;
    const store = storeActingAt("checked-before", () => writeFileSync(file, theirs));
    await expect(store.addObject("algebra", lattices)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(NOTHING_WRITTEN),
    });
    expect(await read()).toBe(theirs);
    expect(lstatSync(file).ino).toBe(inode);
    expect(await leftovers()).toEqual([]);
  });

  it("while the name is free, by rename: the link fails (EEXIST), CONFLICT, the save stands", async () => {
    const { file, original, read, leftovers, storeActingAt } = await mathProject();
    const theirs = `${original}# saved by rename while category.yaml was taken\n`;
    const store = storeActingAt("stashed", () => saveByRename(file, theirs));
    await expect(store.addObject("algebra", lattices)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(NOTHING_WRITTEN),
    });
    expect(await read()).toBe(theirs);
    expect(await leftovers()).toEqual([]);
  });

  it("while the name is free, in place by path (creates the file): CONFLICT, the save stands", async () => {
    const { file, original, read, leftovers, storeActingAt } = await mathProject();
    const theirs = `${original}# written by path while category.yaml was taken\n`;
    const store = storeActingAt("checked", () => writeFileSync(file, theirs));
    await expect(store.addObject("algebra", lattices)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(NOTHING_WRITTEN),
    });
    expect(await read()).toBe(theirs);
    expect(await leftovers()).toEqual([]);
  });

  it("right after the take-over, through a descriptor opened before: the check of the taken file puts it back, CONFLICT", async () => {
    const { file, original, read, leftovers, storeActingAt } = await mathProject();
    const editor = openedEditor(file);
    const theirs = `${original}# saved in place into the file being taken\n`;
    const store = storeActingAt("stashed", () => editor.save(theirs));
    await expect(store.addObject("algebra", lattices)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(NOTHING_WRITTEN),
    });
    expect(await read()).toBe(theirs);
    // The editor's file is category.yaml again: its later writes land there.
    editor.append("# more\n", Buffer.byteLength(theirs));
    expect(await read()).toBe(`${theirs}# more\n`);
    expect(await leftovers()).toEqual([]);
  });

  it.each(["checked", "linked"] as const)(
    "after the %s step, through a descriptor opened before: the new file is withdrawn and the save put back, CONFLICT",
    async (step) => {
      const { file, original, read, leftovers, storeActingAt } = await mathProject();
      const editor = openedEditor(file);
      const theirs = `${original}# saved in place while catdoc committed\n`;
      const store = storeActingAt(step, () => editor.save(theirs));
      await expect(store.addObject("algebra", lattices)).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining(PUT_BACK),
      });
      expect(await read()).toBe(theirs);
      editor.append("# more\n", Buffer.byteLength(theirs));
      expect(await read()).toBe(`${theirs}# more\n`);
      expect(await leftovers()).toEqual([]);
      // Retried, the edit reads the editor's version and keeps it.
      await store.addObject("algebra", lattices);
      expect(await read()).toContain("# saved in place while catdoc committed");
    },
  );

  it("after the link, by rename: a later save, it stands (the edit was written, then replaced)", async () => {
    const { file, original, read, leftovers, storeActingAt } = await mathProject();
    const theirs = `${original}# saved by rename after catdoc's commit\n`;
    const store = storeActingAt("linked", () => saveByRename(file, theirs));
    const result = await store.addObject("algebra", lattices);
    expect(result.written).toBe(true);
    expect(await read()).toBe(theirs);
    expect(await leftovers()).toEqual([]);
  });

  it("after the link, in place through an old descriptor and then by rename: the newest (the rename) stands", async () => {
    const { file, original, read, leftovers, storeActingAt } = await mathProject();
    const editor = openedEditor(file);
    const older = `${original}# saved in place\n`;
    const newest = `${original}# then saved by rename\n`;
    const store = storeActingAt("linked", () => {
      editor.save(older);
      saveByRename(file, newest);
    });
    expect((await store.addObject("algebra", lattices)).written).toBe(true);
    expect(await read()).toBe(newest);
    expect(await leftovers()).toEqual([]);
  });

  it("during the put-back (after the withdraw), by rename: the newest save stands, CONFLICT", async () => {
    const { file, original, read, leftovers, storeActingAt } = await mathProject();
    const editor = openedEditor(file);
    const older = `${original}# saved in place\n`;
    const newest = `${original}# then saved by rename during the put-back\n`;
    const store = storeActingAt("linked", () => editor.save(older), { withdrawn: () => saveByRename(file, newest) });
    await expect(store.addObject("algebra", lattices)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(PUT_BACK),
    });
    expect(await read()).toBe(newest);
    expect(await leftovers()).toEqual([]);
  });

  it("in place, between its truncation and its write: the edit waits for the write and keeps it", async () => {
    const { file, original, read, leftovers, root } = await mathProject();
    const editor = openedEditor(file);
    // The editor has truncated the file; its write comes a moment later. An edit that took the
    // empty file as the project would commit over it, and the write would land in the file the
    // commit took away.
    editor.truncate();
    const theirs = `${original}# written in place after the truncation\n`;
    setTimeout(() => editor.save(theirs), 20);
    await new CatDocStore(root).addCategory({ id: "orders", name: "Orders" });
    expect(await read()).toContain("# written in place after the truncation");
    expect(await read()).toContain("id: orders");
    expect(await leftovers()).toEqual([]);
  });

  it("with no save, every step runs and nothing is left but the new file", async () => {
    const { root, read, leftovers } = await mathProject();
    const seen: CommitStep[] = [];
    const store = new CatDocStore(root, { onCommitStep: (step) => seen.push(step) });
    await store.addObject("algebra", lattices);
    expect(seen).toEqual(["checked-before", "stashed", "checked", "linked", "verified"]);
    expect(await read()).toContain("id: lattices");
    expect(await leftovers()).toEqual([]);
  });
});

/** A live process that is not this one (the owner of a stash "inside its commit"). */
async function liveProcess(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  closers.push(() => child.kill("SIGKILL"));
  await new Promise((resolve) => child.once("spawn", resolve));
  return child.pid!;
}

/** A pid whose process has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

function stashName(file: string, pid: number, time = Date.now()): string {
  return join(file, "..", `.category.yaml.${pid}.${time}.0123456789ab.stash`);
}

describe("a reader that finds category.yaml missing", () => {
  it("inside a live process's commit: waits for the file to come back, never reports the project missing", async () => {
    const { root, file, original, leftovers } = await mathProject();
    const stash = stashName(file, await liveProcess());
    await rename(file, stash);
    const store = new CatDocStore(root);
    const initialized = store.isInitialized();
    const loaded = store.load();
    // The commit ends: its new file is linked in, then the stash and the temporary name go.
    const next = original.replace("# ", "#  ");
    setTimeout(() => {
      writeFileSync(`${file}.next`, next);
      linkSync(`${file}.next`, file);
      rmSync(stash);
      rmSync(`${file}.next`);
    }, 30);
    expect(await initialized).toBe(true);
    expect((await loaded).version).toBe(contentVersion(next));
    expect(await leftovers()).toEqual([]);
  });

  it("inside a live process stalled in its commit for longer than the wait: reads the stash (the last committed version)", async () => {
    const { root, file, original } = await mathProject();
    const stash = stashName(file, await liveProcess());
    await rename(file, stash);
    const started = Date.now();
    const project = await new CatDocStore(root).load();
    expect(project.version).toBe(contentVersion(original));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    // Still the stalled process's to finish: not restored by a reader.
    expect(await readdir(join(file, ".."))).toContain(stash.split("/").at(-1));
  });

  it("left stashed by a process that is gone: restored (the newest stash), stashes removed", async () => {
    const { root, file, original, read, leftovers } = await mathProject();
    const dead = await deadPid();
    await rename(file, stashName(file, dead));
    // An older stash of another dead commit (one killed after its link, long ago) must not win.
    await writeFile(stashName(file, dead, Date.now() - 60_000), "categories: []\n");
    const store = new CatDocStore(root);
    expect((await store.load()).version).toBe(contentVersion(original));
    expect(await read()).toBe(original);
    expect(await leftovers()).toEqual([]);
  });

  it("left stashed by a process that is gone: restored only under the project lock", async () => {
    const { root, file, original, read, catdocDir } = await mathProject();
    await rename(file, stashName(file, await deadPid()));
    const store = new CatDocStore(root);
    let loaded: Promise<unknown> | undefined;
    await withProjectLock(store.paths, async () => {
      loaded = store.load();
      // The reader is waiting for the lock once its candidate lock folder exists.
      for (let i = 0; i < 2_000 && !(await readdir(catdocDir)).some((name) => name.endsWith(".new")); i += 1)
        await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await readdir(catdocDir)).some((name) => name.endsWith(".new"))).toBe(true);
      await expect(readFile(file)).rejects.toMatchObject({ code: "ENOENT" });
    });
    await loaded;
    expect(await read()).toBe(original);
  });

  it("with no stash: the project is not initialized", async () => {
    const root = await tempDir();
    const store = new CatDocStore(root);
    expect(await store.isInitialized()).toBe(false);
    await expect(store.load()).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
