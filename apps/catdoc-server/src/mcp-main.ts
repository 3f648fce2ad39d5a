/**
 * The main of `catdoc-mcp` as a function, so both the bin (mcp.ts) and the CLI's `catdoc mcp`
 * can run it. core's runServerMain handles --help, --version and --http PORT, else stdio.
 * Options it does not know (such as the CLI's --dashboard) must be taken out of `argv` by the
 * caller before it calls this.
 *
 * Start-up (issue #14): this module's static imports are core's light entry and two leaf
 * modules only. The server (MCP SDK, zod, the tools' schemas) is loaded by `factory`, once the
 * arguments ask for a server; the domain's heavy parts (yaml, MiniSearch, the validators, the
 * importer) load when a tool first needs them. test/mcp/start-up.test.ts keeps it that way.
 */
import { runServerMain } from "@local-mcp/core/main";
import { APP_INFO } from "./app-info.js";
import type { CatDocConfig } from "./config.js";

export interface CatDocMcpOptions {
  argv?: readonly string[];
  /** Defaults to the configuration of this process (CATDOC_PROJECT_PATH, LOCAL_MCP_*). */
  config?: CatDocConfig;
}

export async function runCatDocMcp(options: CatDocMcpOptions = {}): Promise<void> {
  await runServerMain({
    app: APP_INFO,
    ...(options.argv === undefined ? {} : { argv: options.argv }),
    factory: async () => {
      const { catDocServerFactory } = await import("./server.js");
      return catDocServerFactory(options.config);
    },
  });
}
