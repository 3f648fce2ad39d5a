/**
 * The configuration of the CatDoc servers — the only module that reads the environment.
 * `CATDOC_*` variables are parsed with zod through core's `parseEnvConfig`,
 * the shared `LOCAL_MCP_*` ones through `parseCommonConfig`; a bad value is an error naming
 * the variable. The environment and the working directory are parameters, so tests inject them.
 */
import { isAbsolute, resolve } from "node:path";
import { parseCommonConfig, parseEnvConfig } from "@local-mcp/core/config";
import type { CommonConfig, Env } from "@local-mcp/core/config";
import { z } from "zod";

const CatDocEnvSchema = z.object({
  /** CATDOC_PROJECT_PATH: the project root (the folder holding `.catdoc/`). */
  projectPath: z.string().trim().min(1).optional(),
});

export interface CatDocConfig extends CommonConfig {
  /** Absolute project root: CATDOC_PROJECT_PATH (resolved against `cwd`), else `cwd`. */
  projectPath: string;
}

/** The configuration in `env` (app-info.ts lists its variables for `--help`); a bad value throws a ConfigError. */
export function loadCatDocConfig(env: Env, cwd: string): CatDocConfig {
  const common = parseCommonConfig(env);
  const own = parseEnvConfig("CATDOC_", CatDocEnvSchema, env);
  const projectPath =
    own.projectPath === undefined ? resolve(cwd) : isAbsolute(own.projectPath) ? own.projectPath : resolve(cwd, own.projectPath);
  return { ...common, projectPath };
}
