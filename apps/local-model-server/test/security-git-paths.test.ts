/**
 * Security review (issue #8, part 5): local_git's `repo` and `options.paths` stay under the
 * roots like every other path (security.test.ts covers local_extract, local_verify,
 * local_analyze and local_generate's writes). `..`, absolute paths elsewhere, a symlink to a file
 * outside and a symlinked folder leading to another repository are FORBIDDEN, and `options.ref`
 * cannot smuggle a git option that writes a file (`--output=…`).
 */
import { existsSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRepo } from "./git-repo-fixture.js";
import { configFor, connect, errorOf, tempDir, type Connected } from "./helpers.js";

let outer: Awaited<ReturnType<typeof tempDir>>;
let root: string;
let otherRepo: string;
let server: Connected;

beforeAll(async () => {
  outer = await tempDir("local-model-git-sec-");
  root = join(outer.path, "root");
  otherRepo = join(outer.path, "other-repo");
  await mkdir(root);
  await mkdir(otherRepo);
  buildRepo(root);
  buildRepo(otherRepo);
  await writeFile(join(outer.path, "secret.txt"), "top secret\n");
  await symlink(otherRepo, join(root, "dir-out"));
  await symlink(join(outer.path, "secret.txt"), join(root, "link-out.txt"));
  server = await connect(configFor({ LOCAL_MODEL_ROOTS: root, LOCAL_MODEL_STATE_DIR: join(outer.path, "state") }));
});

afterAll(async () => {
  await server?.close();
  await outer?.remove();
});

async function gitError(args: Record<string, unknown>) {
  const { isError, body } = await server.call("local_git", args);
  expect(isError, JSON.stringify(body)).toBe(true);
  return errorOf(body);
}

describe("local_git stays under the roots", () => {
  it("refuses a repo outside: `..`, an absolute path, a symlinked folder", async () => {
    for (const repo of ["..", "../other-repo", otherRepo, "dir-out", "dir-out/src"]) {
      expect(await gitError({ task_type: "status", repo }), repo).toMatchObject({ code: "FORBIDDEN", status: 403 });
    }
  });

  it("refuses paths outside: `..`, absolute, a symlink to a file, through a symlinked folder (existing or not)", async () => {
    for (const path of ["../secret.txt", join(outer.path, "secret.txt"), "link-out.txt", "dir-out/a.txt", "dir-out/new/x.txt"]) {
      for (const task_type of ["status", "diff", "log", "changed_files"]) {
        expect(await gitError({ task_type, options: { paths: [path] } }), `${task_type} ${path}`).toMatchObject({ code: "FORBIDDEN" });
      }
    }
  });

  it("refuses a ref that is a git option: nothing is written", async () => {
    const target = join(outer.path, "pwned.txt");
    for (const ref of [`--output=${target}`, "-o", "--exec=touch pwned"]) {
      expect(await gitError({ task_type: "diff", options: { ref } }), ref).toMatchObject({ code: "INVALID_INPUT" });
    }
    expect(existsSync(target)).toBe(false);
  });

  it("works inside (the checks are not a blanket refusal)", async () => {
    const { isError } = await server.call("local_git", { task_type: "status", options: { paths: ["a.txt"] } });
    expect(isError).toBe(false);
  });
});
