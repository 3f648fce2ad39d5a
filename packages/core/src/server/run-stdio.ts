import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createLogger, type Logger } from "../logger.js";
import type { ServerFactory } from "./create-server.js";
import { protocolStdout } from "./stdout-guard.js";

export interface RunStdioOptions {
  logger?: Logger;
  /** Exit the process after a clean shutdown (default true; tests pass false). */
  exitOnClose?: boolean;
  stdin?: NodeJS.EventEmitter;
}

export interface StdioHandle {
  shutdown: (reason: string) => Promise<void>;
}

/** The ready line written to stderr once the server answers on stdio (tests wait for it). */
export const STDIO_READY_TEXT = "ready on stdio";

/**
 * Serves one MCP server over stdio. stdout carries JSON-RPC only; the ready line and every log
 * go to stderr. SIGINT, SIGTERM and the end of stdin (the client went away) shut down cleanly:
 * the server's `cleanup` runs once, then the process exits.
 */
export async function runStdio(factory: ServerFactory, options: RunStdioOptions = {}): Promise<StdioHandle> {
  const created = await factory();
  const name = created.definition.name;
  const logger = options.logger ?? created.definition.logger ?? createLogger({ name });
  const stdin: NodeJS.EventEmitter = options.stdin ?? process.stdin;
  // The real stdout, which the stdout guard keeps for the transport alone (see stdout-guard.ts).
  const transport = new StdioServerTransport(process.stdin, protocolStdout());
  let stopping: Promise<void> | undefined;

  const shutdown = (reason: string): Promise<void> => {
    // Set before cleanup runs: closing the server closes the transport, which calls back here.
    if (stopping) return stopping;
    let finish!: () => void;
    stopping = new Promise<void>((resolve) => (finish = resolve));
    void (async () => {
      logger.info(`shutting down (${reason})`);
      try {
        await created.cleanup();
      } catch (error) {
        logger.error("cleanup failed", { error });
      }
      finish();
      if (options.exitOnClose ?? true) process.exit(0);
    })();
    return stopping;
  };

  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  stdin.on("end", () => void shutdown("stdin closed"));
  stdin.on("close", () => void shutdown("stdin closed"));
  transport.onclose = () => void shutdown("transport closed");

  await created.server.connect(transport);
  // The ready line is written whatever the log level: supervisors and tests wait for it.
  process.stderr.write(`${name} ${created.definition.version} ${STDIO_READY_TEXT} (${created.definition.tools.length} tools)\n`);
  return { shutdown };
}
