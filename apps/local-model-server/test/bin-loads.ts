/**
 * What a run of a built bin loaded (the same helper as mochi-server/test/helpers/bin-loads.ts), through core's module-load observer: the npm packages and the
 * app's and core's sources. A bundle chunk counts as every module esbuild put in it (it opens each
 * with a `// path` comment), so the answer is the same for a bundled and an unbundled build.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOAD_LOG_ENV, LOAD_OBSERVER_URL, readLoadLog } from "@local-mcp/core/testing";

export interface BinRun {
  code: number;
  stdout: string;
  stderr: string;
  /** npm packages, e.g. `zod`, `@modelcontextprotocol/sdk`. */
  packages: Set<string>;
  /** Sources of this app (`src/cli.ts`) and of core (`core:src/server/run-main.ts` or `core:dist/…`). */
  sources: Set<string>;
}

const PACKAGE = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//;

/** Runs `node <bin> ...args` under the observer in an empty temporary directory. */
export async function runObserved(bin: string, args: readonly string[], env: Record<string, string> = {}): Promise<BinRun> {
  const dir = mkdtempSync(join(tmpdir(), "bin-loads-"));
  const log = join(dir, "loads.txt");
  try {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ["--import", LOAD_OBSERVER_URL, bin, ...args], { cwd: dir, env: { ...process.env, ...env, [LOAD_LOG_ENV]: log } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });
    const packages = new Set<string>();
    const sources = new Set<string>();
    const add = (path: string) => {
      const inModules = PACKAGE.exec(path);
      if (inModules?.[1] !== undefined) packages.add(inModules[1]);
      else if (/packages\/core\/(src|dist)\//.test(path)) sources.add(`core:${path.slice(path.indexOf("packages/core/") + "packages/core/".length)}`);
      else {
        const own = /(?:^|\/)(src\/.+\.ts)$/.exec(path);
        if (own?.[1] !== undefined) sources.add(own[1]);
      }
    };
    for (const module of readLoadLog(log)) {
      if (module.startsWith("node:")) continue;
      const path = module.startsWith("file:") ? fileURLToPath(module) : module;
      add(path);
      if (!path.includes("/dist/") || path.includes("/node_modules/")) continue;
      for (const match of readFileSync(path, "utf8").matchAll(/^\/\/ (\S+\.(?:[cm]?js|ts|json))$/gm)) add(match[1] ?? "");
    }
    return { ...result, packages, sources };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
