/**
 * What a run of a built bin loaded, through the module-load observer (load-observer.ts): the npm
 * packages, the app's own sources and core's, and the bytes read. A bundle file counts as every
 * module esbuild put in it — the app's bundle-inputs.json, written by scripts/bundle-app.mjs from
 * esbuild's metafile, says which — so the answer names sources whether the bin is a bundle or not,
 * minified or not.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOAD_LOG_ENV, LOAD_OBSERVER_URL, readLoadLog } from "./load-log.js";

export interface LoadedModules {
  /** npm packages, e.g. `zod`, `@modelcontextprotocol/server`. */
  packages: Set<string>;
  /** Sources of the app (`src/<file>.ts`) and of core (`core:src/server/run-main.ts` or `core:dist/…`). */
  sources: Set<string>;
  /** Bytes of the files loaded (bundle chunks, modules, packages' files). */
  bytes: number;
}

export interface BinRun extends LoadedModules {
  code: number;
  stdout: string;
  stderr: string;
}

/** The package a path is in: after its last `node_modules/` (pnpm's `.pnpm/<id>/node_modules/<name>` and npm's nesting alike). */
const PACKAGE = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//;
const CORE = "packages/core/";
/** Written next to an app's package.json by scripts/bundle-app.mjs: dist path → what that file holds. */
const BUNDLE_INPUTS = "bundle-inputs.json";
const DIST = "/dist/";

/** What the bundle file at `path` (inside an app's dist/) holds, from its app's bundle-inputs.json. */
function bundledInputs(path: string, maps: Map<string, Record<string, string[]>>): string[] {
  const appDir = path.slice(0, path.lastIndexOf(DIST));
  let map = maps.get(appDir);
  if (map === undefined) {
    const file = join(appDir, BUNDLE_INPUTS);
    try {
      map = JSON.parse(readFileSync(file, "utf8")) as Record<string, string[]>;
    } catch {
      throw new Error(
        `loadedModules: ${path} is a bundle but ${file} is missing or unreadable; build the app with scripts/bundle-app.mjs (pnpm build)`,
      );
    }
    maps.set(appDir, map);
  }
  const inputs = map[path.slice(appDir.length + DIST.length)];
  if (inputs === undefined)
    throw new Error(`loadedModules: ${path} is not in ${join(appDir, BUNDLE_INPUTS)}; rebuild the app (pnpm build)`);
  return inputs;
}

/** The packages and sources in what a process loaded (`readLoadLog`'s answer); a bundle chunk stands for what esbuild put in it. */
export function loadedModules(modules: readonly string[]): LoadedModules {
  const packages = new Set<string>();
  const sources = new Set<string>();
  let bytes = 0;
  const add = (path: string) => {
    const inModules = PACKAGE.exec(path);
    if (inModules?.[1] !== undefined) packages.add(inModules[1]);
    else if (/packages\/core\/(src|dist)\//.test(path)) sources.add(`core:${path.slice(path.indexOf(CORE) + CORE.length)}`);
    else {
      const own = /(?:^|\/)(src\/.+\.ts)$/.exec(path);
      if (own?.[1] !== undefined) sources.add(own[1]);
    }
  };
  const maps = new Map<string, Record<string, string[]>>();
  const files = new Set(modules.filter((m) => !m.startsWith("node:")).map((m) => (m.startsWith("file:") ? fileURLToPath(m) : m)));
  for (const path of files) {
    // A CommonJS builtin is logged by its bare name (`fs`); only files count.
    if (!isAbsolute(path)) continue;
    add(path);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    bytes += Buffer.byteLength(text);
    // An app's bundle (apps/x/dist, not core's per-module tsc output, not an installed package).
    if (!path.includes(DIST) || path.includes("/node_modules/") || path.includes(`/${CORE}`)) continue;
    for (const input of bundledInputs(path, maps)) add(input);
  }
  return { packages, sources, bytes };
}

/** Runs `node <bin> ...args` under the observer in an empty temporary directory; its exit, output and what it loaded. */
export async function runObserved(bin: string, args: readonly string[], env: Record<string, string> = {}): Promise<BinRun> {
  const dir = mkdtempSync(join(tmpdir(), "bin-loads-"));
  const log = join(dir, "loads.txt");
  try {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--import", LOAD_OBSERVER_URL, bin, ...args],
        { cwd: dir, env: { ...process.env, ...env, [LOAD_LOG_ENV]: log } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });
    return { ...result, ...loadedModules(readLoadLog(log)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
