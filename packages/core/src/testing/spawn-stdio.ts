import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { parseJSONRPCMessage, type Client, type JSONRPCMessage, type ProtocolEra, type Transport } from "@modelcontextprotocol/client";
import { createEraClient } from "./era-client.js";
import { spawnUntilReady } from "./spawn-ready.js";

export interface SpawnStdioOptions {
  command: string;
  args?: readonly string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** What the ready line on stderr looks like (default: core's "ready on stdio"). */
  readyPattern?: RegExp;
  readyTimeoutMs?: number;
  /**
   * The protocol era the client connects in (see createEraClient): "legacy" (default) runs the
   * 2025 initialize handshake, "modern" pins 2026-07-28. The probe of a pinned connect rides this
   * same child (a custom transport probes in place), so its stdout is checked too.
   */
  era?: ProtocolEra;
}

export interface SpawnedStdioServer {
  client: Client;
  child: ChildProcessWithoutNullStreams;
  /** Every line the server wrote to stdout. */
  stdoutLines: readonly string[];
  /** Lines of stdout that were not a JSON-RPC message. */
  nonJsonRpcLines: readonly string[];
  stderr: () => string;
  /** Throws, listing them, when stdout carried anything but JSON-RPC. */
  assertCleanStdout: () => void;
  /** Closes stdin (the client goes away) and waits for the process to exit. */
  close: (timeoutMs?: number) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A client transport over a spawned child that records and checks every stdout line. */
class CheckedChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly lines: string[] = [];
  readonly violations: string[] = [];
  private buffer = "";

  constructor(private readonly child: ChildProcessWithoutNullStreams) {}

  async start(): Promise<void> {
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, newline).replace(/\r$/, "");
        this.buffer = this.buffer.slice(newline + 1);
        this.accept(line);
      }
    });
    this.child.once("exit", () => {
      if (this.buffer.length > 0) this.accept(this.buffer);
      this.buffer = "";
      this.onclose?.();
    });
  }

  private accept(line: string): void {
    this.lines.push(line);
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.violations.push(line);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(parsed);
    } catch {
      this.violations.push(line);
      return;
    }
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.child.stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
  }
}

/**
 * Spawns a `*-mcp` bin, waits for its ready line on stderr (never a sleep), connects the real SDK
 * client over its stdio, and records every stdout line so a test can assert it was all JSON-RPC.
 */
export async function spawnStdioServer(options: SpawnStdioOptions): Promise<SpawnedStdioServer> {
  const { child, stderr, exited } = await spawnUntilReady({ ...options, readyPattern: options.readyPattern ?? /ready on stdio/ });
  const transport = new CheckedChildTransport(child);
  const client = createEraClient(options.era, "local-mcp-stdio-test");
  try {
    await client.connect(transport);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }

  return {
    client,
    child,
    stdoutLines: transport.lines,
    nonJsonRpcLines: transport.violations,
    stderr,
    assertCleanStdout: () => {
      if (transport.violations.length > 0) {
        throw new Error(
          `stdout carried ${transport.violations.length} non-JSON-RPC line(s):\n${transport.violations.slice(0, 5).join("\n")}`,
        );
      }
    },
    close: async (timeoutMs = 5_000) => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
