/**
 * Paths the file system refuses are the caller's mistake and get a coded error from every tool
 * that takes paths (local_extract, local_analyze, local_verify, local_git, local_generate's
 * output_path), never INTERNAL: a NUL byte and a path above 4,095 bytes or with a name above
 * 255 bytes are INVALID_INPUT, a loop of symbolic links is NOT_FOUND. The fuzz harness
 * (tests/fuzz) found ENAMETOOLONG answered INTERNAL.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRepo } from "./git-repo-fixture.js";
import { configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

let outer: Awaited<ReturnType<typeof tempDir>>;
let root: string;
let server: Connected;

/** 5,000 characters: above every limit. */
const OVERLONG = "a".repeat(5_000);
/** Below 4,096 characters but above 4,095 bytes (é is two bytes): only the byte count refuses it. */
const OVERLONG_BYTES = "é".repeat(2_100);
/** A short path whose one name is above 255 bytes: the file system answers ENAMETOOLONG. */
const LONG_NAME = `src/${"n".repeat(300)}.ts`;
const INVALID = [OVERLONG, OVERLONG_BYTES, LONG_NAME, "src/a\0.ts", "\0"];
/** loop-a → loop-b → loop-a, and self.ts → self.ts. */
const LOOPS = ["loop-a", "loop-b/x.ts", "self.ts"];

beforeAll(async () => {
  outer = await tempDir("local-model-unusable-");
  root = join(outer.path, "root");
  await mkdir(join(root, "src"), { recursive: true });
  buildRepo(root);
  await writeFile(join(root, "src", "ok.ts"), "export const ok = 1;\n");
  await symlink(join(root, "loop-b"), join(root, "loop-a"));
  await symlink(join(root, "loop-a"), join(root, "loop-b"));
  await symlink(join(root, "self.ts"), join(root, "self.ts"));
  server = await connect(configFor({ LOCAL_MODEL_ROOTS: root, LOCAL_MODEL_STATE_DIR: join(outer.path, "state") }));
});

afterAll(async () => {
  await server?.close();
  await outer?.remove();
});

async function failure(tool: string, args: Record<string, unknown>) {
  const { isError, body } = await server.call(tool, args);
  expect(isError, JSON.stringify(body).slice(0, 300)).toBe(true);
  const error = errorOf(body);
  expect(error.code).not.toBe("INTERNAL");
  return error;
}

/** An inline template (not a template name), as in security.test.ts. */
const TEMPLATE = { template: "ok {{x}}\n", variables: { x: 1 } };

const short = (path: string) => JSON.stringify(path.slice(0, 40));

describe("unusable paths get coded errors", () => {
  it("local_extract and local_analyze: NUL, overlong paths and long names are INVALID_INPUT; a symlink loop is NOT_FOUND", async () => {
    for (const path of INVALID) {
      expect(await failure("local_extract", { task_type: "exports", files: [path] }), short(path)).toMatchObject({
        code: "INVALID_INPUT",
        status: 400,
      });
      expect(await failure("local_analyze", { task_type: "exports", files: [path] }), short(path)).toMatchObject({ code: "INVALID_INPUT" });
    }
    for (const path of LOOPS) {
      const error = await failure("local_extract", { task_type: "exports", files: [path] });
      expect(error, path).toMatchObject({ code: "NOT_FOUND", details: { path } });
      expect(error.message).toContain("symbolic links form a loop");
      expect(await failure("local_analyze", { task_type: "exports", files: [path] }), path).toMatchObject({ code: "NOT_FOUND" });
    }
  });

  it("the message quotes the start of an overlong path, not all of it", async () => {
    const error = await failure("local_extract", { task_type: "exports", files: [OVERLONG_BYTES] });
    expect(error.message).toContain("(2100 characters)");
    expect(error.message.length).toBeLessThan(400);
  });

  it("local_verify: unusable files are INVALID_INPUT; a file behind a symlink loop fails its check as not found", async () => {
    for (const file of INVALID) {
      const { isError, body } = await server.call("local_verify", {
        checks: [{ id: "X", file, condition: { type: "contains", value: "x" } }],
      });
      expect(isError, short(file)).toBe(true);
      // The 5,000-character path is past the schema's 4,096-character bound; the others reach the guard.
      expect(errorOf(body).code, short(file)).toBe("INVALID_INPUT");
    }
    const { isError, body } = await server.call("local_verify", {
      checks: LOOPS.map((file, i) => ({ id: `L${i}`, file, condition: { type: "contains", value: "x" } })),
    });
    expect(isError, JSON.stringify(body)).toBe(false);
    expect(JSON.stringify(dataOf(body))).toContain("fail");
  });

  it("local_git: repo and options.paths refuse NUL and long names as INVALID_INPUT and loops as NOT_FOUND", async () => {
    for (const path of INVALID) {
      expect(await failure("local_git", { task_type: "status", repo: path }), short(path)).toMatchObject({ code: "INVALID_INPUT" });
      expect(await failure("local_git", { task_type: "status", options: { paths: [path] } }), short(path)).toMatchObject({
        code: "INVALID_INPUT",
      });
    }
    for (const path of LOOPS) {
      expect(await failure("local_git", { task_type: "status", repo: path }), path).toMatchObject({ code: "NOT_FOUND" });
      expect(await failure("local_git", { task_type: "diff", options: { paths: [path] } }), path).toMatchObject({ code: "NOT_FOUND" });
    }
    // A good call still works.
    expect((await server.call("local_git", { task_type: "status", options: { paths: ["src"] } })).isError).toBe(false);
  });

  it("local_generate: an output_path that is unusable or under a loop is refused with a code; a file in the way is INVALID_INPUT", async () => {
    for (const output_path of [...INVALID, `out/${"n".repeat(300)}/x.md`]) {
      expect(await failure("local_generate", { ...TEMPLATE, output_path }), short(output_path)).toMatchObject({ code: "INVALID_INPUT" });
    }
    expect(await failure("local_generate", { ...TEMPLATE, output_path: "loop-a/new/out.md" })).toMatchObject({ code: "NOT_FOUND" });
    expect(await failure("local_generate", { ...TEMPLATE, output_path: "src/ok.ts/new/out.md" })).toMatchObject({
      code: "INVALID_INPUT",
      message: "The parent of 'src/ok.ts/new/out.md' is not a directory.",
    });
  });
});
