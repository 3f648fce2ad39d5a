import { spawnSync } from "node:child_process";
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
});
