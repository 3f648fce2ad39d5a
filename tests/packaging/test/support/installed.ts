/** The install global-setup.ts made for this run: where it is and each package's bins. */
import { inject } from "vitest";
import type { InstalledPackage, PackInstallResult } from "../../../../scripts/pack-install.mjs";

export function packedInstall(): PackInstallResult {
  return inject("packInstall");
}

export function installedPackage(name: string): InstalledPackage {
  const found = packedInstall().packages.find((pkg) => pkg.name === name);
  if (!found) throw new Error(`${name} is not in the packed install`);
  return found;
}
