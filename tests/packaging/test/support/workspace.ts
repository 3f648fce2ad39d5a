/** The workspace's package.json files and the published apps, read from the repository. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const REPO = resolve(import.meta.dirname, "../../../..");

export interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  license?: string;
  keywords?: string[];
  homepage?: string;
  repository?: { type?: string; url?: string; directory?: string };
  engines?: Record<string, string>;
  files?: string[];
  bin?: Record<string, string>;
  mcpName?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export interface WorkspacePackage {
  dir: string;
  pkg: PackageJson;
}

export function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
}

/** The root and every package under packages/, apps/ and tests/. */
export function workspacePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [{ dir: REPO, pkg: readPackage(REPO) }];
  for (const group of ["packages", "apps", "tests"]) {
    for (const entry of readdirSync(join(REPO, group), { withFileTypes: true })) {
      const dir = join(REPO, group, entry.name);
      if (entry.isDirectory() && existsSync(join(dir, "package.json"))) found.push({ dir, pkg: readPackage(dir) });
    }
  }
  return found;
}

/** Each published server: its app folder, package name, CLI bin and the module with its version literal. */
export const SERVERS = [
  { app: "catdoc-server", cli: "catdoc" },
  { app: "local-model-server", cli: "local-model" },
  { app: "mochi-server", cli: "mochi" },
  { app: "solo-assets-server", cli: "solo-assets" },
].map((server) => ({ ...server, dir: join(REPO, "apps", server.app), name: `@local-mcp/${server.app}` }));
