/**
 * The unified-diff reader the review chore anchors its notes with (src/domain/git/unified-diff.ts),
 * on git's own output: a rename with an edit, a deletion, a new file without a final newline and a
 * name with spaces; each new-side line number checked against the file as committed.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { newSideLines, numberedDiff, parseUnifiedDiff } from "../src/domain/git/unified-diff.js";
import { GIT_ENV } from "./git-repo-fixture.js";
import { tempDir } from "./helpers.js";

let dir: Awaited<ReturnType<typeof tempDir>>;
let patch: string;

const git = (...args: string[]) => execFileSync("git", args, { cwd: dir.path, env: GIT_ENV, encoding: "utf8" });
const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join("\n") + "\n";

beforeAll(async () => {
  dir = await tempDir("local-model-udiff-");
  git("init", "-q", "-b", "main");
  mkdirSync(join(dir.path, "src"));
  writeFileSync(join(dir.path, "src/old name.ts"), lines(30, "line"));
  writeFileSync(join(dir.path, "gone.txt"), "bye\n");
  git("add", ".");
  git("commit", "-q", "-m", "one");
  git("mv", "src/old name.ts", "src/new name.ts");
  const edited = lines(30, "line").replace("line 20\n", "line 20 changed\nline 20b\n");
  writeFileSync(join(dir.path, "src/new name.ts"), edited);
  rmSync(join(dir.path, "gone.txt"));
  writeFileSync(join(dir.path, "fresh.md"), "# Fresh\nno newline at the end");
  git("add", "-A");
  git("commit", "-q", "-m", "two");
  patch = git("-c", "core.quotepath=false", "diff", "--unified=3", "-M", "--no-color", "HEAD~1..HEAD");
});
afterAll(async () => dir?.remove());

it("reads renames, deletions, new files and new-side line numbers from git's patch", () => {
  const files = parseUnifiedDiff(patch);
  expect(files.map((f) => ({ path: f.path, from: f.from, deleted: f.deleted ?? false, hunks: f.hunks.length }))).toEqual([
    { path: "fresh.md", from: undefined, deleted: false, hunks: 1 },
    { path: "gone.txt", from: undefined, deleted: true, hunks: 1 },
    { path: "src/new name.ts", from: "src/old name.ts", deleted: false, hunks: 1 },
  ]);
  const anchors = newSideLines(files);
  // Every new-side line the diff shows is that line of the committed file.
  for (const path of ["fresh.md", "src/new name.ts"]) {
    const committed = readFileSync(join(dir.path, path), "utf8").split("\n");
    const shown = [...(anchors.get(path) ?? new Map<number, string>())];
    expect(shown.length).toBeGreaterThan(1);
    for (const [line, text] of shown) expect(committed[line - 1], `${path}:${line}`).toBe(text);
  }
  // The hunk around line 20: context 17-19, added 20-21, context 22-24; nothing outside it.
  expect([...(anchors.get("src/new name.ts")?.keys() ?? [])]).toEqual([17, 18, 19, 20, 21, 22, 23, 24]);
  expect(anchors.get("gone.txt")?.size).toBe(0);
  expect(numberedDiff(files)).toContain("### src/new name.ts (renamed from src/old name.ts)\n@@ -17,7 +17,8 @@");
  expect(numberedDiff(files)).toContain("   20 + line 20 changed\n   21 + line 20b\n   22   line 21");
});
