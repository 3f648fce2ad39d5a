import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfinementError, isPathInside, openConfined, writeFileConfined } from "../src/index.js";

let dir: string;
let root: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "core-confined-")));
  root = join(dir, "root");
  await mkdir(join(root, "sub"), { recursive: true });
  await writeFile(join(root, "inside.txt"), "inside\n");
  await writeFile(join(dir, "secret.txt"), "secret\n");
  await mkdir(join(dir, "outside"));
  await symlink(join(dir, "secret.txt"), join(root, "link-out.txt"));
  await symlink(join(root, "inside.txt"), join(root, "link-in.txt"));
  await symlink(join(dir, "outside"), join(root, "dir-out"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("openConfined", () => {
  it("opens a file under the roots and reports the real path of what was opened", async () => {
    const opened = await openConfined(join(root, "link-in.txt"), [root]);
    try {
      expect(opened.realPath).toBe(join(root, "inside.txt"));
      expect(opened.stats.isFile()).toBe(true);
      expect((await opened.handle.readFile("utf8")).trim()).toBe("inside");
    } finally {
      await opened.handle.close();
    }
  });

  it("refuses what was opened outside the roots, through a link to a file or a linked folder", async () => {
    for (const path of [join(root, "link-out.txt"), join(root, "..", "secret.txt")]) {
      await expect(openConfined(path, [root])).rejects.toBeInstanceOf(ConfinementError);
    }
    await writeFile(join(dir, "outside", "x.txt"), "x\n");
    await expect(openConfined(join(root, "dir-out", "x.txt"), [root])).rejects.toMatchObject({ reason: "outside" });
  });

  it("does not block on a FIFO (the caller sees it is not a regular file)", async () => {
    execFileSync("mkfifo", [join(root, "fifo")]);
    const opened = await openConfined(join(root, "fifo"), [root]);
    expect(opened.stats.isFile()).toBe(false);
    await opened.handle.close();
  });

  it("passes the file system's own errors through", async () => {
    await expect(openConfined(join(root, "missing.txt"), [root])).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("isPathInside: the root itself and below, not a sibling with the same prefix", () => {
    expect(isPathInside("/a/b", "/a/b")).toBe(true);
    expect(isPathInside("/a/b", "/a/b/c")).toBe(true);
    expect(isPathInside("/a/b", "/a/bc")).toBe(false);
    expect(isPathInside("/a/b", "/a")).toBe(false);
  });
});

describe("writeFileConfined", () => {
  it("writes into a folder under the roots, atomically, returning the real path", async () => {
    expect(await writeFileConfined(join(root, "sub", "out.txt"), "hello", [root])).toBe(join(root, "sub", "out.txt"));
    expect(await readFile(join(root, "sub", "out.txt"), "utf8")).toBe("hello");
  });

  it("refuses a folder that leads outside, and writes nothing there", async () => {
    await expect(writeFileConfined(join(root, "dir-out", "planted.txt"), "x", [root])).rejects.toBeInstanceOf(ConfinementError);
    await expect(readFile(join(dir, "outside", "planted.txt"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("replaces a link at the target instead of writing through it", async () => {
    await writeFileConfined(join(root, "link-out.txt"), "replaced", [root]);
    expect(await readFile(join(dir, "secret.txt"), "utf8")).toBe("secret\n");
    expect(await readFile(join(root, "link-out.txt"), "utf8")).toBe("replaced");
  });

  it("lets the caller refuse the real target before anything is written", async () => {
    const refuse = (real: string) => {
      if (real.endsWith("forbidden.txt")) throw new Error("refused");
    };
    await expect(writeFileConfined(join(root, "forbidden.txt"), "x", [root], { check: refuse })).rejects.toThrow("refused");
    await expect(readFile(join(root, "forbidden.txt"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
