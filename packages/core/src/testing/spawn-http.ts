import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { StreamableHTTPClientTransport, type Client, type ProtocolEra } from "@modelcontextprotocol/client";
import { createEraClient } from "./era-client.js";
import { spawnUntilReady, type ExitStatus } from "./spawn-ready.js";

export interface SpawnHttpOptions {
  command: string;
  /** The bin's arguments; `--http 0` (a free port) is appended. */
  args?: readonly string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  readyTimeoutMs?: number;
}

export interface SpawnedHttpServer {
  /** The endpoint from the ready line, e.g. http://127.0.0.1:PORT/mcp. */
  url: URL;
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  /** A new v2 SDK client connected over Streamable HTTP in that era (see createEraClient). */
  connect: (era?: ProtocolEra) => Promise<Client>;
  /** Closes every client connect() made, then SIGTERMs the server and waits for it to exit. */
  close: (timeoutMs?: number) => Promise<ExitStatus>;
}

/**
 * Spawns a `*-mcp` bin with `--http 0`, waits for its "ready on http://127.0.0.1:PORT/mcp" line on
 * stderr (never a sleep), and connects real SDK clients to it, one per connect() call.
 */
export async function spawnHttpServer(options: SpawnHttpOptions): Promise<SpawnedHttpServer> {
  const { child, ready, stderr, exited } = await spawnUntilReady({
    ...options,
    args: [...(options.args ?? []), "--http", "0"],
    readyPattern: /ready on (http:\/\/127\.0\.0\.1:\d+\/mcp)\b/,
  });
  const url = new URL(ready[1] as string);
  const clients: Client[] = [];
  return {
    url,
    child,
    stderr,
    connect: async (era = "legacy") => {
      const client = createEraClient(era, "local-mcp-http-test");
      await client.connect(new StreamableHTTPClientTransport(url));
      clients.push(client);
      return client;
    },
    close: async (timeoutMs = 5_000) => {
      await Promise.allSettled(clients.map((client) => client.close()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
