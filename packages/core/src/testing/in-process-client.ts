import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { createServer, type CreatedServer, type ServerDefinition } from "../server/create-server.js";

export interface InProcessConnection {
  client: Client;
  created: CreatedServer;
  close: () => Promise<void>;
}

/**
 * Connects a real SDK client to a server definition in the same process (linked in-memory
 * transports): the fast way to test tools and resources through the protocol.
 */
export async function connectInProcess(
  target: ServerDefinition | CreatedServer,
  clientInfo = { name: "local-mcp-test-client", version: "0.0.0" },
): Promise<InProcessConnection> {
  const created = "server" in target ? target : createServer(target);
  // Both halves from the client package (a linked pair must come from one package); the server
  // side only needs the Transport shape.
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client(clientInfo, { capabilities: {} });
  await created.server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    created,
    close: async () => {
      await client.close();
      await created.cleanup();
    },
  };
}
