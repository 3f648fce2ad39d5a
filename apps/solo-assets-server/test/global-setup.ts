/**
 * Once per run: makes the shared pooled environment without dependencies, so parallel test
 * files find it ready instead of racing to create it (the pool would cope, but it is wasted work).
 */
import { EnvironmentPool } from "../src/domain/gate/tests/environment-pool.js";
import { loadSoloAssetsConfig } from "../src/config.js";
import { SHARED_ENVS_DIR, testEnv } from "./helpers/test-library.js";

export default async function setup(): Promise<void> {
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
