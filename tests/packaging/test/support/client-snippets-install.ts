/**
 * Where client-snippets.test.ts works: a folder inside the run's packed install (global-setup.ts
 * packs every publishable package with pnpm and installs the tarballs with plain npm, once per
 * run). Projects under it find the packages the way `npx` finds a project's own dependencies.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { packedInstall } from "./installed.js";

export interface PackedInstall {
  /** The install folder (package.json and node_modules/). */
  dir: string;
  /** An empty folder under it for the test's own files. */
  work: string;
  /** Removes the work folder (the install belongs to the global setup). */
  cleanup(): void;
}

export function clientSnippetsWorkspace(): PackedInstall {
  const dir = packedInstall().dir;
  const work = mkdtempSync(join(dir, "client-snippets-"));
  return { dir, work, cleanup: () => rmSync(work, { recursive: true, force: true }) };
}
