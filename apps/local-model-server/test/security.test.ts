import { mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

let server: Connected;
let outer: Awaited<ReturnType<typeof tempDir>>;
let root: string;
let other: string;
const SECRET = "top secret\n";

beforeAll(async () => {
  outer = await tempDir("local-model-sec-");
  root = join(outer.path, "root");
  other = join(outer.path, "other");
  await mkdir(join(root, "src"), { recursive: true });
  await mkdir(other);
  await writeFile(join(outer.path, "secret.txt"), SECRET);
  await writeFile(join(outer.path, "outside.ts"), "export const outside = 1;\n");
  await writeFile(join(root, "ok.txt"), "---\ntitle: ok\n---\nbody\n");
  await writeFile(join(other, "second.md"), "---\ntitle: second root\n---\n");
  await writeFile(join(root, "bin.dat"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0d, 0x0a]));
  await writeFile(join(root, "big.txt"), "x".repeat(2048));
  await writeFile(
    join(root, "src/a.ts"),
    'import { outside } from "../../outside.js";\nimport { missing } from "./missing.js";\nexport const a = outside + missing;\n',
  );
  await symlink(join(outer.path, "secret.txt"), join(root, "link-out.txt"));
  await symlink(outer.path, join(root, "dir-out"));
  await symlink(join(root, "ok.txt"), join(root, "link-in.txt"));
  server = await connect(
    configFor({
      LOCAL_MODEL_ROOTS: `${root}:${other}`,
      LOCAL_MODEL_STATE_DIR: join(outer.path, "state"),
      LOCAL_MODEL_MAX_FILE_BYTES: "1024",
    }),
  );
});
afterAll(async () => {
  await server.close();
  await outer.remove();
});

async function extractError(path: string) {
  const { isError, body } = await server.call("local_extract", { task_type: "frontmatter", files: [path] });
  expect(isError).toBe(true);
  return errorOf(body);
}

describe("reads stay under the roots", () => {
  it("refuses `..` traversal", async () => {
    expect(await extractError("../secret.txt")).toMatchObject({ code: "FORBIDDEN", status: 403, recoverable: false });
    expect(await extractError("src/../../secret.txt")).toMatchObject({ code: "FORBIDDEN" });
  });

  it("refuses absolute paths elsewhere, whether or not they exist", async () => {
    expect(await extractError(join(outer.path, "secret.txt"))).toMatchObject({ code: "FORBIDDEN" });
    expect(await extractError("/etc/passwd")).toMatchObject({ code: "FORBIDDEN" });
    expect(await extractError(join(outer.path, "no-such-file.txt"))).toMatchObject({ code: "FORBIDDEN" });
  });

  it("refuses symlinks that escape, and follows those that stay inside", async () => {
    expect(await extractError("link-out.txt")).toMatchObject({ code: "FORBIDDEN" });
    expect((await extractError("link-out.txt")).message).toContain("symlink");
    expect(await extractError("dir-out/secret.txt")).toMatchObject({ code: "FORBIDDEN" });
    const inside = await server.call("local_extract", { task_type: "frontmatter", files: ["link-in.txt"] });
    expect(dataOf(inside.body).results).toEqual({ "link-in.txt": { found: true, data: { title: "ok" }, line_numbers: [2] } });
  });

  it("reads absolute paths in any configured root", async () => {
    const path = join(other, "second.md");
    const { body } = await server.call("local_extract", { task_type: "frontmatter", files: [path] });
    expect(dataOf(body).results).toEqual({ [path]: { found: true, data: { title: "second root" }, line_numbers: [2] } });
  });

  it("refuses binary files, oversized files and directories", async () => {
    expect(await extractError("bin.dat")).toMatchObject({
      code: "INVALID_INPUT",
      message: "'bin.dat' looks binary (a NUL byte at offset 4); only text files are read.",
    });
    expect(await extractError("big.txt")).toMatchObject({
      code: "RESOURCE_EXHAUSTED",
      message: "'big.txt' is 2048 bytes, above the per-file cap of 1024 bytes.",
    });
    expect(await extractError("src")).toMatchObject({ code: "INVALID_INPUT", message: "'src' is a directory, not a file." });
    expect(await extractError("missing.txt")).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });

  it("applies the same guard to every tool", async () => {
    const verify = await server.call("local_verify", {
      checks: [{ id: "S", file: "../secret.txt", condition: { type: "contains", value: "secret" } }],
    });
    expect(errorOf(verify.body).code).toBe("FORBIDDEN");
    const analyze = await server.call("local_analyze", { task_type: "exports", files: ["link-out.txt"] });
    expect(errorOf(analyze.body).code).toBe("FORBIDDEN");
  });

  it("does not follow imports out of the roots", async () => {
    // minimal: nothing followed, nothing internal; what leads out (or nowhere) is listed from standard.
    const minimal = await server.call("local_analyze", { task_type: "dependencies", files: ["src/a.ts"], depth: 3 });
    expect(dataOf(minimal.body).analysis).toEqual({ "src/a.ts": { dependencies: { internal: [], external: [] } } });
    const { body } = await server.call("local_analyze", {
      task_type: "dependencies",
      files: ["src/a.ts"],
      depth: 3,
      response_level: "standard",
    });
    expect(dataOf(body).analysis).toMatchObject({
      "src/a.ts": {
        imports: [
          { from: "../../outside.js", items: ["outside"] },
          { from: "./missing.js", items: ["missing"] },
        ],
        dependencies: { internal: [], external: [], unresolved: ["./missing.js"], outside: ["../../outside.js"] },
      },
    });
  });
});

describe("writes stay under the roots", () => {
  async function generateTo(outputPath: string) {
    const { isError, body } = await server.call("local_generate", {
      template: "pwned {{x}}",
      variables: { x: 1 },
      output_path: outputPath,
    });
    expect(isError).toBe(true);
    return errorOf(body);
  }

  it("refuses output paths outside, through `..`, absolute paths, symlinked directories and symlinked files", async () => {
    expect(await generateTo("../evil.md")).toMatchObject({ code: "FORBIDDEN" });
    expect(await generateTo(join(outer.path, "evil.md"))).toMatchObject({ code: "FORBIDDEN" });
    expect(await generateTo("dir-out/evil.md")).toMatchObject({ code: "FORBIDDEN" });
    expect(await generateTo("dir-out/new/deeper/evil.md")).toMatchObject({ code: "FORBIDDEN" });
    expect(await generateTo("link-out.txt")).toMatchObject({ code: "FORBIDDEN" });
    await expect(stat(join(outer.path, "evil.md"))).rejects.toThrow();
    await expect(stat(join(outer.path, "new"))).rejects.toThrow();
    expect(await readFile(join(outer.path, "secret.txt"), "utf8")).toBe(SECRET);
  });

  it("refuses version-control internals in any letter case, git directories by content, and its own config: nothing written (issue #13 item 1)", async () => {
    await mkdir(join(root, "bare", "objects"), { recursive: true });
    await writeFile(join(root, "bare", "HEAD"), "ref: refs/heads/main\n");
    await mkdir(join(root, "half", "refs"), { recursive: true });
    const refused = [
      ".git/config",
      "repo/.git/hooks/pre-commit",
      "repo/.GIT/config",
      "repo/.Git./config",
      "repo/.g\u200cit/config",
      "repo/GIT~1/config",
      "repo/.git",
      ".hg/hgrc",
      "x/.svn/entries",
      ".jj/repo/store",
      "bare/config",
      "bare/hooks/post-index-change",
      "half/HEAD",
      "local-model.config.json",
      "deep/Local-Model.Config.JSON",
    ];
    for (const path of refused) {
      expect(await generateTo(path), path).toMatchObject({ code: "FORBIDDEN" });
    }
    for (const path of [".git", "repo", ".hg", "x", ".jj", "deep", "bare/config", "bare/hooks", "half/HEAD", "local-model.config.json"]) {
      await expect(stat(join(root, path)), path).rejects.toThrow();
    }
    // A name that merely contains `git` is an ordinary file.
    const { isError } = await server.call("local_generate", { template: "ok\n", output_path: "notes/.gitkeep-not/git.md" });
    expect(isError).toBeFalsy();
  });

  it("writes inside, creating directories", async () => {
    const { body } = await server.call("local_generate", { template: "ok {{x}}\n", variables: { x: 1 }, output_path: "made/here/out.md" });
    expect(dataOf(body)).toEqual({ written: true, path: "made/here/out.md" });
    expect(await readFile(join(root, "made/here/out.md"), "utf8")).toBe("ok 1\n");
  });
});
