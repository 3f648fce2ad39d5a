import type { Readable, Writable } from "node:stream";
import { serveStdio, type StdioServerHandle } from "@modelcontextprotocol/server/stdio";
import { createLogger, type Logger } from "../logger.js";
import { CheckedStdioTransport } from "./checked-stdio-transport.js";
import type { ServerFactory } from "./create-server.js";
import { watchListen } from "./resource-watch.js";
import { protocolStdout } from "./stdout-guard.js";

export interface RunStdioOptions {
  logger?: Logger;
  /** Exit the process after a clean shutdown (default true; tests pass false). */
  exitOnClose?: boolean;
  /** Where messages come from (default process.stdin) and answers go (default the real stdout). */
  stdin?: Readable;
  stdout?: Writable;
  /** Longest wait for the answers in flight when stdin ends (default `STDIO_DRAIN_MS`). */
  drainMs?: number;
}

export interface StdioHandle {
  shutdown: (reason: string) => Promise<void>;
  /** Settles once the server has shut down (whatever started it), cleanup done. */
  stopped: Promise<void>;
}

/** The ready line written to stderr once the server answers on stdio (tests wait for it). */
export const STDIO_READY_TEXT = "ready on stdio";

/**
 * When stdin ends (the client closed its end), requests already read are still answered: the
 * server waits up to this long for them before it cleans up and exits. Signals do not wait.
 */
export const STDIO_DRAIN_MS = 10_000;

/**
 * Serves one MCP server over stdio, in either protocol era: the SDK's `serveStdio` pins the
 * connection to the era of its opening message (`initialize`: 2025-11-25 and earlier;
 * `server/discover` or any request with a 2026-07-28 `_meta` envelope: 2026-07-28; an envelope
 * naming another version gets -32022 with the supported list) and serves it with one instance of
 * the prepared server. Under it, core's CheckedStdioTransport: invalid messages, batches and a
 * second initialize get JSON-RPC errors. stdout carries JSON-RPC only; the ready line and
 * every log go to stderr. The end of stdin (the client went away) first lets the requests in
 * flight finish and their answers go out (at most `STDIO_DRAIN_MS`), then shuts down; SIGINT and
 * SIGTERM shut down at once (and cut a drain short). The server's `cleanup` runs once, then the
 * process exits.
 */
export async function runStdio(factory: ServerFactory, options: RunStdioOptions = {}): Promise<StdioHandle> {
  const created = await factory();
  const name = created.definition.name;
  const logger = options.logger ?? created.definition.logger ?? createLogger({ name });
  const drainMs = options.drainMs ?? STDIO_DRAIN_MS;
  const drainCut = new AbortController();
  // Filled in below; shutdown (which a signal may start at any time) closes it when it is there.
  const served: { handle?: StdioServerHandle } = {};
  let stopping: Promise<void> | undefined;
  let stoppedResolve!: () => void;
  const stopped = new Promise<void>((resolve) => (stoppedResolve = resolve));

  const shutdown = (reason: string, drain = false): Promise<void> => {
    if (!drain) drainCut.abort();
    // Set before cleanup runs: closing the server closes the transport, which calls back here.
    if (stopping) return stopping;
    let finish!: () => void;
    stopping = new Promise<void>((resolve) => (finish = resolve));
    void (async () => {
      logger.info(`shutting down (${reason})`);
      if (drain && transport.inFlightCount > 0) {
        const waiting = transport.inFlightCount;
        logger.info(`answering ${waiting} request(s) in flight first (at most ${drainMs} ms)`);
        const { unanswered } = await transport.drain(drainMs, drainCut.signal);
        if (unanswered > 0) logger.warn(`${unanswered} of ${waiting} request(s) in flight left unanswered; their work is cancelled`);
      }
      try {
        await served.handle?.close();
        await created.cleanup();
      } catch (error) {
        logger.error("cleanup failed", { error });
      }
      finish();
      stoppedResolve();
      if (options.exitOnClose ?? true) process.exit(0);
    })();
    return stopping;
  };

  const transport = new CheckedStdioTransport({
    stdin: options.stdin ?? process.stdin,
    // The real stdout, which the stdout guard keeps for the transport alone (see stdout-guard.ts).
    stdout: options.stdout ?? protocolStdout(),
    onRefused: (reason) => logger.warn(`refused a message: ${reason}`),
    onInputEnd: () => void shutdown("stdin closed", true),
    // A 2026-07-28 listen watches what it names while it is open (resource-watch.ts).
    onListen: (params: unknown) => watchListen(created.resourceWatch, params),
  });
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  // serveStdio owns the transport (its onclose included): a closed transport ends the connection.
  served.handle = serveStdio(({ era }) => created.instance({ era }), {
    transport,
    onerror: (error) => logger.debug(`stdio: ${error.message}`),
  });
  // The ready line is written whatever the log level: supervisors and tests wait for it.
  process.stderr.write(`${name} ${created.definition.version} ${STDIO_READY_TEXT} (${created.definition.tools.length} tools)\n`);
  return { shutdown, stopped };
}
