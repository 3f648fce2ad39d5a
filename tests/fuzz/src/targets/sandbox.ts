/**
 * The directory layout every target shares: a sentinel file outside the served root, the root
 * itself six levels down (so `../` runs stay inside the fuzz's directory), and symlinks from the
 * root to the outside.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

export interface Sandbox {
  /** The served root (a project, a work tree). */
  root: string;
  /** A directory outside the root; write-capable fields point here. */
  outside: string;
  sentinel: string;
}

const LEVELS = ["d1", "d2", "d3", "d4", "d5", "d6"];

/** Makes dir/outside (with the sentinel file) and dir/d1/…/d6/root. */
export async function makeSandbox(dir: string): Promise<Sandbox> {
  const sentinel = `FUZZ-SENTINEL-${randomBytes(8).toString("hex")}`;
  const outside = join(dir, "outside");
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, "secret.md"), sentinelText(sentinel));
  const root = join(dir, ...LEVELS, "root");
  await mkdir(root, { recursive: true });
  return { root, outside, sentinel };
}

function sentinelText(sentinel: string): string {
  return `---\ntitle: ${sentinel}\nid: ${sentinel.toLowerCase()}\n---\n# ${sentinel}\n\n${sentinel}\n`;
}

/**
 * What a write that escaped the root left behind: any new entry in outside/ or beside the
 * d1…d6 chain, or a changed sentinel file. Empty while confinement holds.
 */
export async function writesOutside(dir: string, sandbox: Sandbox): Promise<string[]> {
  const found: string[] = [];
  const outsideEntries = await readdir(sandbox.outside);
  for (const entry of outsideEntries) if (entry !== "secret.md") found.push(join(sandbox.outside, entry));
  const secret = await readFile(join(sandbox.outside, "secret.md"), "utf8").catch(() => "");
  if (secret !== sentinelText(sandbox.sentinel)) found.push(`${join(sandbox.outside, "secret.md")} (changed)`);
  let level = dir;
  for (const [i, name] of LEVELS.entries()) {
    level = join(level, name);
    const expected = LEVELS[i + 1] ?? "root";
    for (const entry of await readdir(level)) if (entry !== expected) found.push(join(level, entry));
  }
  return found;
}

/** Links `name` (relative to the root) to the outside file or directory. */
export async function linkOut(sandbox: Sandbox, name: string, target: "file" | "dir"): Promise<void> {
  await symlink(target === "file" ? join(sandbox.outside, "secret.md") : sandbox.outside, join(sandbox.root, name));
}

/** The built entry of an app. */
export const appEntry = (app: string, file = "dist/mcp.js") => join(REPO_ROOT, "apps", app, file);
