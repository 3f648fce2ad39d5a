import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode as ErrorCode,
  parseJSONRPCMessage,
  UnsupportedProtocolVersionError,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/server";

/**
 * A JSON-RPC error the transport sends itself, before any server sees the message. Its id is null
 * when the id could not be read (JSON-RPC 2.0 §5: "If there was an error in detecting the id in
 * the Request object (e.g. Parse error/Invalid Request), it MUST be Null").
 */
export interface TransportErrorReply {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

export type CheckedMessage =
  | { ok: true; message: JSONRPCMessage }
  /** `reply` is absent for an invalid response from the client: a response is never answered. */
  | { ok: false; reason: string; reply?: TransportErrorReply };

export function errorReply(id: RequestId | null, code: number, message: string, data?: unknown): TransportErrorReply {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/**
 * The stateless protocol revisions served (the SDK 2.4.0's modern set). A request whose `_meta`
 * envelope names another version gets -32022 with this list, on every request of a connection —
 * the SDK's serveStdio checks only the one that opens it.
 */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

/** The -32022 answer to a request whose envelope names an unsupported version; undefined when it names none or a served one. */
export function unsupportedVersionReply(message: { id: RequestId; params?: unknown }): TransportErrorReply | undefined {
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (typeof meta !== "object" || meta === null || !(PROTOCOL_VERSION_META_KEY in meta)) return undefined;
  const requested = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof requested === "string" && MODERN_PROTOCOL_VERSIONS.includes(requested)) return undefined;
  const error = new UnsupportedProtocolVersionError({ supported: [...MODERN_PROTOCOL_VERSIONS], requested: String(requested) });
  return errorReply(message.id, error.code, error.message, error.data);
}

export const PARSE_ERROR_MESSAGE = "Parse error: the message is not valid JSON";
export const BATCH_MESSAGE =
  "Invalid Request: JSON-RPC batches are not supported (MCP removed them in protocol 2025-06-18); send one message at a time";
export const ALREADY_INITIALIZED_MESSAGE =
  "Invalid Request: the server is already initialized on this connection; open a new connection to initialize again";

/**
 * Checks one parsed message before a server sees it, as the spec asks (JSON-RPC 2.0, MCP
 * 2025-06-18 and later): a batch array, a value that is not an object, a request whose id is not
 * a string or an integer (`{}`, `[1]`, `1.5`, `true`, `null`) and any other message that is not
 * JSON-RPC get an Invalid Request error (-32600) — with the request's id when it is valid, else
 * null. The SDK's own transports drop all of these without an answer, so the client waits
 * forever. An invalid response from the client is dropped: answering it could start a loop.
 */
export function checkJsonRpcMessage(value: unknown): CheckedMessage {
  if (Array.isArray(value)) return refuse(null, BATCH_MESSAGE);
  if (typeof value !== "object" || value === null) {
    return refuse(null, "Invalid Request: a JSON-RPC message is a JSON object");
  }
  // The SDK's own message schema, built on first use (the public @modelcontextprotocol/core
  // package builds every spec schema when imported: ~40 ms of each start).
  try {
    return { ok: true, message: parseJSONRPCMessage(value) };
  } catch {
    // not a JSON-RPC message: say why below
  }
  const record = value as Record<string, unknown>;
  if (!("method" in record) && ("result" in record || "error" in record)) {
    return { ok: false, reason: "an invalid JSON-RPC response from the client (dropped)" };
  }
  if ("id" in record) {
    const id = record.id;
    if (typeof id !== "string" && !Number.isSafeInteger(id))
      return refuse(null, "Invalid Request: a request id must be a string or an integer");
    return refuse(
      id as RequestId,
      'Invalid Request: not a valid JSON-RPC 2.0 request (jsonrpc "2.0", a string method, object params, no other members)',
    );
  }
  return refuse(
    null,
    'Invalid Request: not a valid JSON-RPC 2.0 notification (jsonrpc "2.0", a string method, object params, no other members)',
  );
}

function refuse(id: RequestId | null, message: string): CheckedMessage {
  return { ok: false, reason: message, reply: errorReply(id, ErrorCode.InvalidRequest, message) };
}
