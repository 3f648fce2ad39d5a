/**
 * The gate's Python tools as the tests run them.
 *
 * With pyenv, `python3`, `ruff` and `mypy` on PATH are shims: bash scripts that start several
 * more processes to pick a version before running the tool (0.1–0.3 s idle, seconds on a loaded
 * machine), and a save runs four or more of them. The test run puts the interpreter's own scripts
 * folder first on PATH (test/global-setup.ts), so the gate runs the same binaries without the
 * detour. Tests that build a PATH of their own (no python3, no bwrap) link the real ruff and mypy
 * into it, so they test what they mean to rather than the npm fallbacks (ruff-wasm, pyright: a
 * Node.js process per check), which lint-and-types.test.ts tests on their own.
 *
 * mypy keeps its cache next to the pooled environments (SOLO_ENVS_DIR/.mypy-cache): a test that
 * needs a fresh pool would type-check cold (seconds, building the standard library's cache).
 * global-setup.ts warms one cache that nobody writes afterwards; such tests start from a copy.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MYPY_OPTIONS } from "../../src/domain/gate/typer/mypy-typer.js";

/** mypy's cache warmed by global-setup.ts, copied into fresh pools. */
export const TYPE_CACHE_SEED = join(tmpdir(), "solo-assets-test-mypy-seed");

/** Standard modules the tests' functions import: their types are in the seed. */
const SEED_SOURCE = "import json, os, re, socket, subprocess, sys, time, typing\n\n\ndef seed(x: int) -> int:\n    return x\n";

/** The folder of python3's own scripts (its ruff and mypy when pip installed them there), or undefined. */
export function pythonScriptsDir(): string | undefined {
  try {
    const dir = execFileSync("python3", ["-c", "import sysconfig; print(sysconfig.get_path('scripts'))"], {
      encoding: "utf8",
      timeout: 60_000,
    }).trim();
    return dir.length > 0 && existsSync(join(dir, "python3")) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Type-checks a seed file into TYPE_CACHE_SEED with the mypy on PATH; false when there is none. */
export function warmTypeCacheSeed(): boolean {
  const dir = join(TYPE_CACHE_SEED, "src");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "function.py"), SEED_SOURCE);
  try {
    // The gate's own options, so the cache entries match.
    execFileSync("mypy", [...MYPY_OPTIONS, "--cache-dir", join(TYPE_CACHE_SEED, ".mypy-cache"), "function.py"], {
      cwd: dir,
      stdio: "ignore",
      timeout: 120_000,
    });
    return true;
  } catch {
    return false;
  }
}

/** Makes `envsDir` (a fresh pool) and starts its mypy cache from the warmed seed, when there is one. */
export function seedTypeCache(envsDir: string): string {
  mkdirSync(envsDir, { recursive: true });
  const seed = join(TYPE_CACHE_SEED, ".mypy-cache");
  if (existsSync(seed)) cpSync(seed, join(envsDir, ".mypy-cache"), { recursive: true });
  return envsDir;
}

/** Links the real ruff and mypy (those installed next to python3) into `bin`; returns the names linked. */
export function linkLintAndTypeTools(bin: string, scripts: string | undefined = process.env.SOLO_TEST_PYTHON_SCRIPTS): string[] {
  if (!scripts) return [];
  const linked: string[] = [];
  for (const tool of ["ruff", "mypy"]) {
    if (!existsSync(join(scripts, tool))) continue;
    symlinkSync(join(scripts, tool), join(bin, tool));
    linked.push(tool);
  }
  return linked;
}
