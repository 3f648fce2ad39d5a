/**
 * The environment variables the CatDoc bins read, for `--help`. A leaf module: the bins show
 * their help without loading the configuration's schemas (config.ts parses the variables).
 */
import type { EnvVarDoc } from "@local-mcp/core/main";

export const CATDOC_ENV_DOCS: readonly EnvVarDoc[] = [
  { name: "CATDOC_PROJECT_PATH", description: "project root holding .catdoc/category.yaml (default: the working directory)" },
];
