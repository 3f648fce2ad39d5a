// Types of scripts/pack-install.mjs, for the TypeScript tests that import it (tests/packaging).
export interface PublishablePackage {
  dir: string;
  name: string;
  version: string;
  bin: Record<string, string>;
}
export interface InstalledPackage {
  name: string;
  version: string;
  /** node_modules/<name> in the install directory. */
  dir: string;
  /** The packed tarball (undefined when describing an install made earlier). */
  tarball: string | undefined;
  /** bin name → absolute path of the installed file. */
  bins: Record<string, string>;
  /** Bytes of the package and every package it pulls in. */
  installBytes: number;
  installPackages: number;
}
export interface PackInstallResult {
  /** The install directory: package.json and node_modules/. */
  dir: string;
  tarballDir: string | undefined;
  packages: InstalledPackage[];
}
export const REPO: string;
export function publishablePackages(repo?: string): PublishablePackage[];
export function npmEnv(env?: NodeJS.ProcessEnv): Record<string, string | undefined>;
export function pack(pkgDir: string, into: string): string;
export function installClosure(installDir: string, name: string): { packages: number; bytes: number };
export function packInstall(options?: { repo?: string; dir?: string; log?: (line: string) => void }): PackInstallResult;
export function describeInstall(
  installDir: string,
  options?: { tarballDir?: string; tarballs?: Record<string, string> },
): PackInstallResult;
