import { Client, type ProtocolEra } from "@modelcontextprotocol/client";

/** The protocol revision a "modern" test client pins (the first of the stateless era). */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * A v2 SDK client for one protocol era: "legacy" runs the default 2025 `initialize` handshake
 * (no probe); "modern" pins 2026-07-28 (`server/discover`, a `_meta` envelope on every request,
 * and no fallback: connecting to a server that does not offer it rejects). After `connect()`,
 * `client.getProtocolEra()` tells which era the connection landed on.
 */
export function createEraClient(era: ProtocolEra = "legacy", name = "local-mcp-test-client"): Client {
  const info = { name, version: "0.0.0" };
  if (era === "legacy") return new Client(info, { capabilities: {} });
  return new Client(info, { capabilities: {}, versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } });
}
