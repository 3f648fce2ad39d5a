import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic, writeFileAtomicSync } from "../src/index.js";

describe("writeFileAtomic", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "atomic-"));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it("writes new files and replaces existing ones, keeping their mode, leaving no temp file", async () => {
    const file = join(dir, "a.yaml");
    await writeFileAtomic(file, "one\n");
    expect(await readFile(file, "utf8")).toBe("one\n");
    await chmod(file, 0o600);
    await writeFileAtomic(file, new TextEncoder().encode("two\n"));
    expect(await readFile(file, "utf8")).toBe("two\n");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["a.yaml"]);
  });

  it("durable: false (a cache's entries) still replaces the file whole and leaves no temp file", async () => {
    const file = join(dir, "entry.cache");
    await writeFileAtomic(file, "one\n", { durable: false });
    await writeFileAtomic(file, new TextEncoder().encode("two\n"), { durable: false });
    expect(await readFile(file, "utf8")).toBe("two\n");
    writeFileAtomicSync(file, "three\n", { durable: false });
    expect(await readFile(file, "utf8")).toBe("three\n");
    expect(await readdir(dir)).toEqual(["entry.cache"]);
  });

  it("removes temporary files of dead writers in its folder after a write, and only those", async () => {
    // A finished child's pid stands for a writer killed with -9 before its rename.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const orphan = `.other.md.${dead}.0123456789ab.tmp`;
    const live = `.other.md.${process.ppid}.0123456789ab.tmp`;
    const unrelated = `.notes.${dead}.tmp`;
    for (const name of [orphan, live, unrelated]) await writeFile(join(dir, name), "partial");
    await writeFileAtomic(join(dir, "d.md"), "new\n");
    expect((await readdir(dir)).sort()).toEqual([live, unrelated, "d.md"].sort());
  });

  it("sets the mode it is given exactly, on new and existing files, whatever the umask", async () => {
    const key = join(dir, "secret.key");
    const previous = process.umask(0o000);
    try {
      await writeFileAtomic(key, "one\n", { mode: 0o600 });
      expect((await stat(key)).mode & 0o777).toBe(0o600);
      await chmod(key, 0o644);
      await writeFileAtomic(key, "two\n", { mode: 0o600 });
      expect((await stat(key)).mode & 0o777).toBe(0o600);
      writeFileAtomicSync(key, "three\n", { mode: 0o640 });
      expect((await stat(key)).mode & 0o777).toBe(0o640);
    } finally {
      process.umask(previous);
    }
    expect(await readFile(key, "utf8")).toBe("three\n");
    expect(await readdir(dir)).toEqual(["secret.key"]);
  });

  it("writeFileAtomicSync replaces the file, keeps its mode and removes dead writers' temporary files", async () => {
    const file = join(dir, "catalog.json");
    writeFileAtomicSync(file, "{}\n");
    await chmod(file, 0o640);
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const orphan = `.catalog.json.${dead}.0123456789ab.tmp`;
    await writeFile(join(dir, orphan), "partial");
    writeFileAtomicSync(file, new TextEncoder().encode("[1]\n"));
    expect(await readFile(file, "utf8")).toBe("[1]\n");
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(["catalog.json"]);
    expect(() => writeFileAtomicSync(join(dir, "missing-dir", "x.json"), "x")).toThrow();
    expect(await readdir(dir)).toEqual(["catalog.json"]);
  });

  it("leaves the old file whole when the write fails", async () => {
    const file = join(dir, "b.txt");
    await writeFile(file, "kept");
    await expect(writeFileAtomic(join(dir, "missing-dir", "c.txt"), "x")).rejects.toThrow();
    expect(await readFile(file, "utf8")).toBe("kept");
    expect(await readdir(dir)).toEqual(["b.txt"]);
  });

  it("beforeRename runs with the temporary file complete and the target untouched; throwing writes nothing", async () => {
    const file = join(dir, "category.yaml");
    await writeFile(file, "read\n");
    const seen: string[][] = [];
    const check = () => {
      const temps = readdirSync(dir).filter((name) => name !== "category.yaml");
      seen.push([readFileSync(file, "utf8"), ...temps.map((name) => readFileSync(join(dir, name), "utf8"))]);
    };
    await writeFileAtomic(file, "edited\n", { beforeRename: check });
    writeFileAtomicSync(file, "edited\n", { beforeRename: check });
    expect(seen).toEqual([
      ["read\n", "edited\n"],
      ["edited\n", "edited\n"],
    ]);
    expect(await readFile(file, "utf8")).toBe("edited\n");

    // Someone saved the file meanwhile: the caller's check refuses, and their save stays.
    await writeFile(file, "their save\n");
    const refused = new Error("changed since it was read");
    const refuse = () => {
      throw refused;
    };
    await expect(writeFileAtomic(file, "mine\n", { beforeRename: refuse })).rejects.toBe(refused);
    expect(() => writeFileAtomicSync(file, "mine\n", { beforeRename: refuse })).toThrow(refused);
    expect(await readFile(file, "utf8")).toBe("their save\n");
    expect(await readdir(dir)).toEqual(["category.yaml"]);
  });

  it("an aborted signal stops the write before the rename and leaves no temporary file; an abort after it changes nothing", async () => {
    const file = join(dir, "category.yaml");
    await writeFile(file, "before\n");
    const already = AbortSignal.abort(new Error("cancelled first"));
    await expect(writeFileAtomic(file, "x", { signal: already })).rejects.toThrow("cancelled first");
    expect(() => writeFileAtomicSync(file, "x", { signal: already })).toThrow("cancelled first");

    // Cancelled while the temporary file is written: checked again just before the rename.
    const controller = new AbortController();
    const writing = writeFileAtomic(file, "x".repeat(1 << 20), { signal: controller.signal });
    controller.abort(new Error("cancelled while writing"));
    await expect(writing).rejects.toThrow("cancelled while writing");
    expect(await readFile(file, "utf8")).toBe("before\n");
    expect(await readdir(dir)).toEqual(["category.yaml"]);

    const late = new AbortController();
    await writeFileAtomic(file, "after\n", { signal: late.signal, beforeRename: () => undefined });
    late.abort();
    expect(await readFile(file, "utf8")).toBe("after\n");
    expect(await readdir(dir)).toEqual(["category.yaml"]);
  });
});
