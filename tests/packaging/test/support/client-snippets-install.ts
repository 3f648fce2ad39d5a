/**
 * The packages as a user gets them, for client-snippets.test.ts: scripts/pack-install.mjs packs
 * every publishable package with pnpm and installs the tarballs with plain npm into an empty
 * temporary folder. The snippets' `npx` finds them there, as a project's own dependencies.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

interface PackInstallResult {
  dir: string;
  tarballDir: string;
  packages: { name: string; bins: Record<string, string> }[];
}

/** Packs and installs; returns the install folder (with package.json and node_modules/). */
export async function installPackedPackages(repo: string): Promise<string> {
  const script = pathToFileURL(join(repo, "scripts/pack-install.mjs")).href;
  const { packInstall } = (await import(script)) as { packInstall: (options: { repo: string }) => PackInstallResult };
  const result = packInstall({ repo });
  rmSync(result.tarballDir, { recursive: true, force: true });
  return result.dir;
}
