/**
 * Once per run: puts python3's own scripts folder first on PATH (test/helpers/gate-tools.ts says
 * why; the test workers and every process they start inherit it), warms the mypy cache that tests
 * with a fresh pool start from, then makes the shared pooled
 * environment without dependencies, so parallel test files find it ready instead of racing to
 * create it (the pool would cope, but it is wasted work).
 */
import { delimiter } from "node:path";
import { EnvironmentPool } from "../src/domain/gate/tests/environment-pool.js";
import { loadSoloAssetsConfig } from "../src/config.js";
import { pythonScriptsDir, warmTypeCacheSeed } from "./helpers/gate-tools.js";
import { SHARED_ENVS_DIR, testEnv } from "./helpers/test-library.js";

export default async function setup(): Promise<void> {
  const scripts = pythonScriptsDir();
  if (scripts) {
    process.env.PATH = [scripts, process.env.PATH ?? ""].join(delimiter);
    process.env.SOLO_TEST_PYTHON_SCRIPTS = scripts;
  }
  warmTypeCacheSeed();
  const config = loadSoloAssetsConfig(testEnv("/unused.duckdb"), process.cwd());
  const pool = new EnvironmentPool({
    envsDir: SHARED_ENVS_DIR,
    python: config.python,
    installer: config.installer,
    installTimeoutMs: config.installTimeoutMs,
    env: config.toolEnv,
  });
  await pool.acquire([], { signal: new AbortController().signal });
}
