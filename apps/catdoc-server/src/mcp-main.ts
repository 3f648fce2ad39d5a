/**
 * The main of `catdoc-mcp` as a function, so both the bin (mcp.ts) and the CLI's `catdoc mcp`
 * can run it. core's runServerMain handles --help, --version and --http PORT, else stdio.
 * Options it does not know (such as the CLI's --dashboard) must be taken out of `argv` by the
 * caller before it calls this.
 */
import { createServer, runServerMain } from "@local-mcp/core";
import { CATDOC_ENV_DOCS, catDocConfigFromProcess } from "./config.js";
import type { CatDocConfig } from "./config.js";
import { CATDOC_SERVER_NAME, CATDOC_SUMMARY, CATDOC_VERSION, createCatDocServer } from "./server.js";

export interface CatDocMcpOptions {
  argv?: readonly string[];
  /** Defaults to the configuration of this process (CATDOC_PROJECT_PATH, LOCAL_MCP_*). */
  config?: CatDocConfig;
}

export async function runCatDocMcp(options: CatDocMcpOptions = {}): Promise<void> {
  await runServerMain({
    bin: CATDOC_SERVER_NAME,
    version: CATDOC_VERSION,
    summary: CATDOC_SUMMARY,
    env: CATDOC_ENV_DOCS,
    ...(options.argv === undefined ? {} : { argv: options.argv }),
    factory: () => {
      const config = options.config ?? catDocConfigFromProcess();
      return () => createServer(createCatDocServer(config));
    },
  });
}
