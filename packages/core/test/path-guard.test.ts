/**
 * The one path guard (src/files/path-guard.ts), in the manner of the filesystem reference server's
 * path-validation tests: traversal, prefix tricks, symbolic links in and out (dangling and looping
 * ones too), NUL, overlong paths, relative and absolute paths, trailing separators and case — each
 * on a real temporary tree, with the coded error a client gets.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PATH_BYTES, ToolError, checkPathShape, confinePath, isInsideAny, pathErrorFrom, quotePath } from "../src/index.js";

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "path-guard-")));
  root = join(base, "root");
  outside = join(base, "root-evil");
  mkdirSync(join(root, "docs", "deep"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, "docs", "a.md"), "a");
  writeFileSync(join(outside, "secret.md"), "secret");
  symlinkSync(join(root, "docs", "a.md"), join(root, "link-in.md"));
  symlinkSync(join(root, "docs"), join(root, "docs-link"));
  symlinkSync(join(outside, "secret.md"), join(root, "link-out.md"));
  symlinkSync(outside, join(root, "dir-out"));
  symlinkSync(join(root, "nowhere.md"), join(root, "dangling-in.md"));
  symlinkSync(join(outside, "nowhere.md"), join(root, "dangling-out.md"));
  symlinkSync(join(root, "loop-b"), join(root, "loop-a"));
  symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
  // The root reached through a link: an alias of the root (as /tmp → /private/tmp on macOS).
  symlinkSync(root, join(base, "root-alias"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The coded error confinePath throws, or the path it returns. */
async function outcome(
  given: string,
  options: Parameters<typeof confinePath>[2] = {},
): Promise<string | { code: string; message: string; details: unknown }> {
  try {
    return await confinePath([root], given, options);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { code: error.code, message: error.message, details: error.details };
  }
}
const codeOf = async (given: string, options: Parameters<typeof confinePath>[2] = {}) => {
  const result = await outcome(given, options);
  return typeof result === "string" ? "OK" : result.code;
};

describe("confinement to a root", () => {
  it("takes the root itself and paths below it, relative or absolute, to their real path", async () => {
    expect(await confinePath([root], ".")).toBe(root);
    expect(await confinePath([root], "./../root")).toBe(root);
    expect(await confinePath([root], "docs/a.md")).toBe(join(root, "docs", "a.md"));
    expect(await confinePath([root], join(root, "docs", "a.md"))).toBe(join(root, "docs", "a.md"));
    expect(await confinePath([root], "./docs/./deep/../a.md")).toBe(join(root, "docs", "a.md"));
  });

  it("refuses traversal out of the root, however it is spelled", async () => {
    for (const given of [
      "..",
      "../root-evil/secret.md",
      "docs/../../root-evil/secret.md",
      "docs/deep/../../../x",
      "./../root-evil",
      "/etc/passwd",
      "/",
    ]) {
      expect(await codeOf(given), given).toBe("FORBIDDEN");
    }
    expect(await outcome("../root-evil/secret.md")).toMatchObject({
      message: "Path '../root-evil/secret.md' is outside the allowed roots",
    });
  });

  it("refuses a sibling whose name starts with the root's (/root vs /root-evil, /rootx)", async () => {
    expect(await codeOf(join(base, "root-evil", "secret.md"))).toBe("FORBIDDEN");
    expect(await codeOf(`${root}-evil`)).toBe("FORBIDDEN");
    expect(await codeOf(`${root}x/new.md`)).toBe("FORBIDDEN");
    expect(isInsideAny([root], `${root}-evil`)).toBe(false);
    expect(isInsideAny([root], root)).toBe(true);
  });

  it("takes names that only look like traversal (`..a`, `a..`)", async () => {
    expect(await confinePath([root], "docs/..a")).toBe(join(root, "docs", "..a"));
    expect(await confinePath([root], "docs/a..")).toBe(join(root, "docs", "a.."));
  });

  it("ignores trailing separators, on the path and on the root", async () => {
    expect(await confinePath([root], "docs/")).toBe(join(root, "docs"));
    expect(await confinePath([`${root}/`], "docs//deep/")).toBe(join(root, "docs", "deep"));
    expect(await codeOf(`${root}-evil/`)).toBe("FORBIDDEN");
  });

  it("compares case exactly (a case-sensitive file system): another case is another, missing, path", async () => {
    expect(await codeOf("DOCS/A.md", { mustExist: true })).toBe("NOT_FOUND");
    expect(await codeOf(root.toUpperCase())).toBe("FORBIDDEN");
  });

  it("takes several roots; relative paths start at the first", async () => {
    expect(await confinePath([root, outside], join(outside, "secret.md"))).toBe(join(outside, "secret.md"));
    expect(await confinePath([outside, root], "secret.md")).toBe(join(outside, "secret.md"));
  });

  it("a path not there yet is fine unless it must exist (NOT_FOUND)", async () => {
    expect(await confinePath([root], "docs/new/out.md")).toBe(join(root, "docs", "new", "out.md"));
    expect(await outcome("docs/nope.md", { mustExist: true })).toMatchObject({
      code: "NOT_FOUND",
      message: "File or folder 'docs/nope.md' not found.",
    });
  });
});

describe("symbolic links", () => {
  it("follows a link that stays inside to its real path", async () => {
    expect(await confinePath([root], "link-in.md")).toBe(join(root, "docs", "a.md"));
    expect(await confinePath([root], "docs-link/deep/new.md")).toBe(join(root, "docs", "deep", "new.md"));
  });

  it("refuses a link out, to a file or through a folder (existing or not below it)", async () => {
    for (const given of ["link-out.md", "dir-out/secret.md", "dir-out/new/out.md", "dir-out"]) {
      expect(await outcome(given), given).toMatchObject({
        code: "FORBIDDEN",
        message: `Path '${given}' resolves outside the allowed roots`,
      });
    }
  });

  it("refuses a dangling link (where a write through it lands cannot be checked); one that must exist is NOT_FOUND", async () => {
    expect(await codeOf("dangling-out.md")).toBe("FORBIDDEN");
    expect(await codeOf("dangling-in.md")).toBe("FORBIDDEN");
    expect(await codeOf("dangling-in.md", { mustExist: true })).toBe("NOT_FOUND");
  });

  it("a loop of links is NOT_FOUND saying so", async () => {
    for (const given of ["loop-a", "loop-b/x.md"]) {
      const result = await outcome(given, { field: "filePath" });
      expect(result, given).toMatchObject({ code: "NOT_FOUND", details: { field: "filePath", path: given } });
      expect((result as { message: string }).message).toContain("symbolic links form a loop");
    }
  });

  it("takes a path through an alias of the root when it really is inside, and refuses one that is not", async () => {
    expect(await confinePath([root], join(base, "root-alias", "docs", "a.md"))).toBe(join(root, "docs", "a.md"));
    expect(await codeOf(join(base, "root-alias", "dir-out", "secret.md"))).toBe("FORBIDDEN");
  });

  it("a root given through a link confines to its real path", async () => {
    expect(await confinePath([join(base, "root-alias")], "docs/a.md")).toBe(join(root, "docs", "a.md"));
    expect(await codeOf("../root-evil/secret.md")).toBe("FORBIDDEN");
  });
});

describe("paths no file system takes", () => {
  it("empty, NUL and overlong paths are INVALID_INPUT naming the argument, quoting only the start", async () => {
    const overlong = "a".repeat(5_000);
    for (const given of ["", "docs/a\0.md", "\0", overlong, `docs/${overlong}`]) {
      const result = await outcome(given, { field: "filePath" });
      expect(result, given.slice(0, 20)).toMatchObject({ code: "INVALID_INPUT", details: { field: "filePath" } });
      expect((result as { message: string }).message).toMatch(/^filePath: /);
      expect((result as { message: string }).message.length).toBeLessThan(400);
    }
    expect(() => checkPathShape("x".repeat(MAX_PATH_BYTES))).not.toThrow();
    expect(() => checkPathShape("x".repeat(MAX_PATH_BYTES + 1))).toThrow(/4096 bytes long, above the 4095-byte limit/);
    // Bytes, not characters: 2,048 two-byte characters are 4,096 bytes.
    expect(() => checkPathShape("é".repeat(2_048))).toThrow(/4096 bytes long/);
    expect(quotePath("q".repeat(2_100))).toMatch(/… \(2100 characters\)$/);
  });

  it("a name above 255 bytes is INVALID_INPUT (ENAMETOOLONG), never INTERNAL", async () => {
    expect(await codeOf(`docs/${"n".repeat(300)}.md`, { mustExist: true })).toBe("INVALID_INPUT");
    expect(await codeOf(`docs/${"n".repeat(300)}/out.md`)).toBe("INVALID_INPUT");
  });
});

describe("errno → coded error (pathErrorFrom)", () => {
  const failure = (code: string) => Object.assign(new Error(code), { code });

  it("maps the file system's errors to codes, naming the argument", () => {
    const cases: [string, string][] = [
      ["ENOENT", "NOT_FOUND"],
      ["ENOTDIR", "NOT_FOUND"],
      ["ELOOP", "NOT_FOUND"],
      ["ENAMETOOLONG", "INVALID_INPUT"],
      ["EINVAL", "INVALID_INPUT"],
      ["EACCES", "FORBIDDEN"],
      ["EPERM", "FORBIDDEN"],
    ];
    for (const [errno, code] of cases) {
      expect(pathErrorFrom(failure(errno), "docs", { field: "filePath" }), errno).toMatchObject({
        code,
        details: { field: "filePath", path: "docs" },
      });
    }
  });

  it("passes an unknown failure (an I/O error) on unchanged: it is not the caller's doing", () => {
    const io = failure("EIO");
    expect(pathErrorFrom(io, "docs")).toBe(io);
    expect(pathErrorFrom(new Error("plain"), "docs")).toBeInstanceOf(Error);
  });

  it("a server's own NOT_FOUND wording and place name", async () => {
    const notFound = (given: string) => ({ message: `File not found: ${given}`, suggestion: "Check the path." });
    expect(pathErrorFrom(failure("ENOENT"), "src/nope.ts", { notFound })).toMatchObject({
      code: "NOT_FOUND",
      message: "File not found: src/nope.ts",
      suggestion: "Check the path.",
    });
    expect(await outcome("../x", { place: "the project root" })).toMatchObject({ message: "Path '../x' is outside the project root" });
  });

  // As root every folder is readable: nothing to refuse.
  it.skipIf(process.getuid?.() === 0)("no permission on the way is FORBIDDEN, not INTERNAL", async () => {
    const locked = join(root, "locked");
    mkdirSync(join(locked, "inner"), { recursive: true });
    const { chmodSync } = await import("node:fs");
    chmodSync(locked, 0o000);
    try {
      expect(await codeOf("locked/inner/file.md", { mustExist: true })).toBe("FORBIDDEN");
    } finally {
      chmodSync(locked, 0o755);
    }
  });
});
