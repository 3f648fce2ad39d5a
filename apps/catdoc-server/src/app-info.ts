/**
 * Who this app is — its bins' `--help`/`--version` and its server's initialize answer. A leaf
 * module (package.json and a type only), so a bin shows its help without loading the server or
 * the configuration's schemas (config.ts parses the variables listed here).
 */
import type { AppInfo } from "@local-mcp/core/main";
import packageJson from "../package.json" with { type: "json" };

export const APP_INFO: AppInfo = {
  name: "catdoc-mcp",
  title: "CatDoc",
  version: packageJson.version,
  summary: packageJson.description,
  env: [{ name: "CATDOC_PROJECT_PATH", description: "project root holding .catdoc/category.yaml (default: the working directory)" }],
};
