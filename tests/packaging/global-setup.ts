/**
 * Once per test run: pack every publishable package and install the tarballs with plain npm into
 * an empty temporary directory (scripts/pack-install.mjs); the tests read where with
 * `inject("packInstall")` (test/support/installed.ts). PACK_INSTALL_DIR=DIR reuses an install
 * made by `node scripts/pack-install.mjs --dir DIR` instead (quicker while working on a test).
 */
import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { describeInstall, packInstall, type PackInstallResult } from "../../scripts/pack-install.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    packInstall: PackInstallResult & { seconds: number };
  }
}

export default function setup(project: TestProject): () => void {
  const reuse = process.env.PACK_INSTALL_DIR;
  const started = Date.now();
  const result = reuse ? describeInstall(reuse) : packInstall({ log: (line) => process.stderr.write(`[pack-install] ${line}\n`) });
  const seconds = (Date.now() - started) / 1000;
  process.stderr.write(
    `[pack-install] ${reuse ? "reused" : "packed and installed"} ${result.packages.length} packages in ${seconds.toFixed(1)} s: ${result.dir}\n`,
  );
  for (const pkg of result.packages)
    process.stderr.write(
      `[pack-install]   ${pkg.name}@${pkg.version} pulls in ${pkg.installPackages} packages, ${(pkg.installBytes / 1024 / 1024).toFixed(1)} MB\n`,
    );
  project.provide("packInstall", { ...result, seconds });
  return () => {
    if (reuse) return;
    rmSync(result.dir, { recursive: true, force: true });
    if (result.tarballDir) rmSync(result.tarballDir, { recursive: true, force: true });
  };
}
