import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** git without the user's config, as a fixed author: repositories built the same on every machine. */
export const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Ada Tester",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada Tester",
  GIT_COMMITTER_EMAIL: "ada@example.com",
};

function git(dir: string, args: string[], date?: string): string {
  const env = date ? { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : GIT_ENV;
  return execFileSync("git", args, { cwd: dir, env, encoding: "utf8" });
}

/**
 * A repository with two commits and then, uncommitted: a staged modification (a.txt), an
 * unstaged one (b.txt, "space name.txt"), a staged rename (c.txt → c2.txt), a staged deletion
 * (d.txt), an unstaged deletion (e.txt), a partly staged file (f.txt), a changed binary
 * (img.bin) and untracked files (new.txt, src/new/thing.ts).
 */
export function buildRepo(dir: string): { head: string; first: string } {
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  git(dir, ["init", "-q", "-b", "main"]);
  write("a.txt", "alpha\n");
  write("b.txt", "beta\n");
  write("c.txt", "gamma 1\ngamma 2\ngamma 3\n");
  write("d.txt", "delta\n");
  write("e.txt", "epsilon 1\nepsilon 2\n");
  write("f.txt", "phi\n");
  write("space name.txt", "spaced\n");
  write("img.bin", Buffer.from([0, 1, 2, 3, 0, 255]));
  write("src/keep.ts", "export const keep = 1;\n");
  git(dir, ["add", "."]);
  git(dir, ["commit", "-q", "-m", "Initial commit"], "2025-01-15T10:00:00+00:00");
  write("docs/guide.md", "# Guide\n");
  git(dir, ["add", "docs/guide.md"]);
  git(dir, ["commit", "-q", "-m", "Add guide", "-m", "The guide explains setup."], "2025-01-16T11:30:00+00:00");
  write("a.txt", "alpha\nalpha 2\n");
  git(dir, ["add", "a.txt"]);
  write("b.txt", "beta\nbeta 2\nbeta 3\n");
  write("space name.txt", "changed\n");
  git(dir, ["mv", "c.txt", "c2.txt"]);
  git(dir, ["rm", "-q", "d.txt"]);
  rmSync(join(dir, "e.txt"));
  write("f.txt", "phi\nphi 2\n");
  git(dir, ["add", "f.txt"]);
  write("f.txt", "phi\nphi 2\nphi 3\n");
  write("img.bin", Buffer.from([0, 9, 9, 9, 0, 255]));
  write("new.txt", "new\n");
  write("src/new/thing.ts", "export {};\n");
  return { head: git(dir, ["rev-parse", "HEAD"]).trim(), first: git(dir, ["rev-parse", "HEAD~1"]).trim() };
}
