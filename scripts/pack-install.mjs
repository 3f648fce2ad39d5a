#!/usr/bin/env node
// Installs the servers the way a user does (issue #14): `pnpm pack` every publishable workspace
// package (pnpm rewrites `workspace:` and `catalog:` specifiers), then `npm install` the tarballs
// with plain npm into an empty directory outside the workspace — no workspace, no pnpm, node
// modules from npm's cache or the registry. Prints (or, imported, returns) the install directory,
// every bin's path, and what each package pulls in (its install size).
//
// Usage: node scripts/pack-install.mjs [--dir DIR] [--json]   (tests/packaging runs it once per run;
//   PACK_INSTALL_DIR=DIR there reuses an install this command made)
//   --dir DIR   install into DIR (created, must be empty) instead of a new temporary directory
//   --json      print the result as JSON
// Build first (`pnpm build`): the tarballs hold dist/ as it is.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Workspace packages that are published: every package.json under apps/ and packages/ not marked private. */
export function publishablePackages(repo = REPO) {
  const found = [];
  for (const group of ["apps", "packages"]) {
    for (const entry of readdirSync(join(repo, group), { withFileTypes: true })) {
      const file = join(repo, group, entry.name, "package.json");
      if (!entry.isDirectory() || !existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, "utf8"));
      if (!pkg.private) found.push({ dir: join(repo, group, entry.name), name: pkg.name, version: pkg.version, bin: pkg.bin ?? {} });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The environment for npm: this process's, without the `npm_*` variables a pnpm script sets (they
 * describe the workspace and pnpm's settings), except those that say where packages come from.
 */
export function npmEnv(env = process.env) {
  const keep = new Set([
    "npm_config_registry",
    "npm_config_cache",
    "npm_config_offline",
    "npm_config_prefer_offline",
    "npm_config_proxy",
    "npm_config_https_proxy",
    "npm_config_noproxy",
    "npm_config_cafile",
    "npm_config_strict_ssl",
  ]);
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key) || keep.has(key.toLowerCase())));
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`${command} ${args.join(" ")}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} (in ${options.cwd}) exited ${result.status}:\n${result.stderr}${result.stdout}`);
  return result;
}

/** `pnpm pack` of one package into `into`; returns the tarball's path. */
export function pack(pkgDir, into) {
  const { stdout } = run("pnpm", ["pack", "--pack-destination", into], { cwd: pkgDir });
  const tarball = stdout
    .trim()
    .split("\n")
    .reverse()
    .find((line) => line.trim().endsWith(".tgz"));
  if (!tarball) throw new Error(`pnpm pack in ${pkgDir} printed no tarball:\n${stdout}`);
  return resolve(into, tarball.trim());
}

/** Apparent size of a directory's files (like `du -sb`), not counting its own node_modules. */
function ownBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += ownBytes(path);
    else total += lstatSync(path).size;
  }
  return total;
}

/**
 * What installing one package pulls in: the package and every package its dependencies resolve to
 * in the installed tree (Node's lookup: nearest node_modules first), each counted once.
 */
export function installClosure(installDir, name) {
  const lock = JSON.parse(readFileSync(join(installDir, "node_modules/.package-lock.json"), "utf8")).packages;
  const locate = (from, dep) => {
    for (let base = from; ; base = base.includes("/node_modules/") ? base.slice(0, base.lastIndexOf("/node_modules/")) : "") {
      const candidate = base ? `${base}/node_modules/${dep}` : `node_modules/${dep}`;
      if (lock[candidate]) return candidate;
      if (!base) return undefined;
    }
  };
  const seen = new Set();
  const queue = [`node_modules/${name}`];
  while (queue.length > 0) {
    const location = queue.pop();
    if (seen.has(location) || !lock[location]) continue;
    seen.add(location);
    const entry = lock[location];
    // npm installs peer dependencies too, except optional ones (solo-assets' node-llama-cpp).
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((peer) => !entry.peerDependenciesMeta?.[peer]?.optional);
    const deps = [...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }), ...peers];
    for (const dep of deps) {
      const found = locate(location, dep);
      if (found) queue.push(found);
    }
  }
  const locations = [...seen].filter((location) => existsSync(join(installDir, location)));
  return { packages: locations.length, bytes: locations.reduce((sum, location) => sum + ownBytes(join(installDir, location)), 0) };
}

/**
 * Packs every publishable package and installs the tarballs with npm into `dir` (default: a new
 * temporary directory). Returns the install directory, the tarballs, and per package its bins
 * (absolute paths of the installed files) and install size.
 */
export function packInstall({ repo = REPO, dir, log = () => {} } = {}) {
  const packages = publishablePackages(repo);
  if (packages.length === 0) throw new Error("no publishable package (all are private)");
  const tarballDir = mkdtempSync(join(tmpdir(), "local-mcp-pack-"));
  for (const pkg of packages) {
    if (!existsSync(join(pkg.dir, "dist"))) throw new Error(`${pkg.name} is not built (no dist/): run pnpm build first`);
    pkg.tarball = pack(pkg.dir, tarballDir);
    log(`packed ${pkg.name} → ${pkg.tarball}`);
  }
  const installDir = dir ? resolve(dir) : mkdtempSync(join(tmpdir(), "local-mcp-install-"));
  mkdirSync(installDir, { recursive: true });
  if (readdirSync(installDir).length > 0) throw new Error(`${installDir} is not empty`);
  writeFileSync(join(installDir, "package.json"), `${JSON.stringify({ name: "local-mcp-pack-install", private: true }, null, 2)}\n`);
  const started = Date.now();
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...packages.map((pkg) => pkg.tarball)], {
    cwd: installDir,
    env: npmEnv(),
  });
  log(`npm install of ${packages.length} tarballs into ${installDir}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return describeInstall(installDir, { tarballDir, tarballs: Object.fromEntries(packages.map((pkg) => [pkg.name, pkg.tarball])) });
}

/**
 * An install made by packInstall (or `node scripts/pack-install.mjs`), described: per installed
 * @local-mcp package its version, directory, tarball, bins (absolute paths) and install size.
 */
export function describeInstall(installDir, { tarballDir, tarballs = {} } = {}) {
  const scope = join(installDir, "node_modules", "@local-mcp");
  if (!existsSync(scope)) throw new Error(`${installDir} holds no @local-mcp package`);
  // npm records where each tarball came from: `file:<path relative to the install>`.
  const lock = JSON.parse(readFileSync(join(installDir, "node_modules/.package-lock.json"), "utf8")).packages;
  const tarballOf = (name) => {
    const resolved = tarballs[name] ?? lock[`node_modules/${name}`]?.resolved;
    if (!resolved) return undefined;
    const path = resolve(installDir, resolved.replace(/^file:/, ""));
    return existsSync(path) ? path : undefined;
  };
  return {
    dir: installDir,
    tarballDir,
    packages: readdirSync(scope)
      .sort()
      .map((unscoped) => {
        const name = `@local-mcp/${unscoped}`;
        const home = join(scope, unscoped);
        const installed = JSON.parse(readFileSync(join(home, "package.json"), "utf8"));
        const bins = Object.fromEntries(Object.entries(installed.bin ?? {}).map(([bin, file]) => [bin, join(home, file)]));
        const size = installClosure(installDir, name);
        return {
          name,
          version: installed.version,
          dir: home,
          tarball: tarballOf(name),
          bins,
          installBytes: size.bytes,
          installPackages: size.packages,
        };
      }),
  };
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf("--dir");
  try {
    const result = packInstall({ dir: at > 0 ? process.argv[at + 1] : undefined, log: (line) => process.stderr.write(`${line}\n`) });
    if (process.argv.includes("--json")) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      process.stdout.write(`installed into ${result.dir}\n`);
      for (const pkg of result.packages) {
        process.stdout.write(`\n${pkg.name}@${pkg.version}: pulls in ${pkg.installPackages} packages, ${mb(pkg.installBytes)}\n`);
        for (const [bin, path] of Object.entries(pkg.bins)) process.stdout.write(`  ${bin}  ${path}\n`);
      }
    }
  } catch (error) {
    process.stderr.write(`pack-install: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
