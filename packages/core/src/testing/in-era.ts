import type { Client, ProtocolEra } from "@modelcontextprotocol/client";
import { spawnHttpServer } from "./spawn-http.js";
import { spawnStdioServer, type SpawnStdioOptions } from "./spawn-stdio.js";

export interface InEraOptions extends Omit<SpawnStdioOptions, "era"> {
  era: ProtocolEra;
  /** stdio (the bin as a client spawns it) or `--http 0` (Streamable HTTP). */
  transport: "stdio" | "http";
  /** How long the server may take to exit after it is closed (default 5 s). */
  closeTimeoutMs?: number;
}

/**
 * Spawns a `*-mcp` bin, connects a real SDK client in the era asked over the transport asked, runs
 * `exercise` with it, and closes it; throws when the connection landed in another era, when stdout
 * carried anything but JSON-RPC (stdio), or when the server did not exit 0. The one way the apps'
 * both-eras tests drive their servers.
 */
export async function withServerInEra(options: InEraOptions, exercise: (client: Client) => Promise<void>): Promise<void> {
  const { era, transport, closeTimeoutMs, ...spawn } = options;
  const checkEra = (client: Client) => {
    if (client.getProtocolEra() !== era) throw new Error(`connected in the ${client.getProtocolEra()} era, not ${era}`);
  };
  const exitedCleanly = (exit: { code: number | null }, stderr: () => string) => {
    if (exit.code !== 0) throw new Error(`the server exited ${JSON.stringify(exit)}; stderr:\n${stderr().slice(-2_000)}`);
  };
  if (transport === "stdio") {
    const server = await spawnStdioServer({ ...spawn, era });
    let exit: { code: number | null };
    try {
      checkEra(server.client);
      await exercise(server.client);
    } finally {
      exit = await server.close(closeTimeoutMs);
    }
    // Reached only when the exercise passed (its own failure is the one worth reporting).
    server.assertCleanStdout();
    exitedCleanly(exit, server.stderr);
    return;
  }
  const server = await spawnHttpServer(spawn);
  let exit: { code: number | null };
  try {
    const client = await server.connect(era);
    checkEra(client);
    await exercise(client);
  } finally {
    exit = await server.close(closeTimeoutMs);
  }
  exitedCleanly(exit, server.stderr);
}
