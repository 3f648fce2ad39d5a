import type { Readable, Writable } from "node:stream";
import {
  ProtocolErrorCode as ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from "@modelcontextprotocol/server";
import {
  ALREADY_INITIALIZED_MESSAGE,
  PARSE_ERROR_MESSAGE,
  checkJsonRpcMessage,
  errorReply,
  unsupportedVersionReply,
  type TransportErrorReply,
} from "./json-rpc-checks.js";

/** The SDK's limit for one stdio message, kept: a longer line is refused, not buffered. */
export const MAX_STDIO_LINE_BYTES = 10 * 1024 * 1024;

export interface CheckedStdioTransportOptions {
  stdin: Readable;
  stdout: Writable;
  /** Called with why a message was refused (answered with an error, or dropped); for the log. */
  onRefused?: (reason: string) => void;
  /** Called once stdin has ended and every complete line before the end was handed on. */
  onInputEnd?: () => void;
  maxLineBytes?: number;
  /**
   * Called for each 2026-07-28 `subscriptions/listen` request with its params; what it returns is
   * called once the listen ends (its answer is sent, the client cancels it, or the connection closes).
   */
  onListen?: (params: unknown) => () => void;
}

/**
 * The stdio transport of core's servers: newline-delimited JSON-RPC on stdin and stdout, like the
 * SDK's StdioServerTransport, with what that transport leaves out:
 *
 * - every line is checked before the server sees it (`checkJsonRpcMessage`): a line that is not
 *   JSON gets -32700, a batch array, an invalid id or any other invalid message -32600 (id null
 *   when the id could not be read), instead of silence;
 * - a second `initialize` on the connection gets -32600 (the SDK's Server would accept it and
 *   answer a second handshake);
 * - a line longer than `maxLineBytes` is refused with -32600 and skipped (the SDK's closes the
 *   whole connection);
 * - the requests handed on and not yet answered are counted, so the runner can `drain` them
 *   when stdin ends: answers still arrive after the client closed its end of the pipe.
 */
export class CheckedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly maxLineBytes: number;
  /** The start of a line not yet ended, as received (joined once its newline arrives: no quadratic copying). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Skipping the rest of an oversized line, up to its newline. */
  private skipping = false;
  private inputEnded = false;
  private closed = false;
  /** Requests handed to the server and not yet answered (or cancelled by the client). */
  private readonly inFlight = new Set<RequestId>();
  /** Open `subscriptions/listen` requests and what ends their watching. */
  private readonly listens = new Map<RequestId, () => void>();
  private initialize: { state: "none" } | { state: "pending"; id: RequestId } | { state: "done" } = { state: "none" };
  private pendingWrites = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: CheckedStdioTransportOptions) {
    this.stdin = options.stdin;
    this.stdout = options.stdout;
    this.maxLineBytes = options.maxLineBytes ?? MAX_STDIO_LINE_BYTES;
  }

  /** Requests the server has not answered yet. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  async start(): Promise<void> {
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStdinError);
    this.stdin.on("end", this.onEnd);
    this.stdin.on("close", this.onEnd);
  }

  /**
   * Resolves once every request handed on has been answered and the answers were written, or
   * when `timeoutMs` has passed or `signal` fires; says how many were still unanswered.
   */
  async drain(timeoutMs: number, signal?: AbortSignal): Promise<{ unanswered: number }> {
    if (!this.busy()) return { unanswered: 0 };
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener("abort", done, { once: true });
      this.idleWaiters.push(done);
    });
    return { unanswered: this.inFlight.size };
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      if (this.initialize.state === "pending" && this.initialize.id === message.id) {
        this.initialize = isJSONRPCResultResponse(message) ? { state: "done" } : { state: "none" };
      }
      this.inFlight.delete(message.id);
      this.endListen(message.id);
    }
    await this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStdinError);
    this.stdin.off("end", this.onEnd);
    this.stdin.off("close", this.onEnd);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.pending = [];
    this.pendingBytes = 0;
    for (const id of [...this.listens.keys()]) this.endListen(id);
    this.wakeIfIdle(true);
    this.onclose?.();
  }

  private endListen(id: RequestId): void {
    const release = this.listens.get(id);
    this.listens.delete(id);
    release?.();
  }

  private busy(): boolean {
    return this.inFlight.size > 0 || this.pendingWrites > 0;
  }

  private wakeIfIdle(force = false): void {
    if (!force && this.busy()) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private write(message: JSONRPCMessage | TransportErrorReply): Promise<void> {
    this.pendingWrites += 1;
    return new Promise<void>((resolve) => {
      // Resolved once the line is handed to the OS: the runner exits only after its answers left.
      this.stdout.write(`${JSON.stringify(message)}\n`, (error) => {
        if (error) this.onerror?.(error);
        this.pendingWrites -= 1;
        resolve();
        this.wakeIfIdle();
      });
    });
  }

  private readonly onStdinError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    if (this.closed) return;
    let data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    while (data.length > 0) {
      const newline = data.indexOf(0x0a);
      if (this.skipping) {
        if (newline < 0) return;
        this.skipping = false;
        data = data.subarray(newline + 1);
        continue;
      }
      if (newline < 0) {
        this.pending.push(data);
        this.pendingBytes += data.length;
        if (this.pendingBytes > this.maxLineBytes) this.refuseOversized();
        return;
      }
      const line = this.takeLine(data.subarray(0, newline));
      data = data.subarray(newline + 1);
      if (line.length > this.maxLineBytes) {
        this.reply(errorReply(null, ErrorCode.InvalidRequest, this.oversizedMessage()));
        continue;
      }
      this.handleLine(line.toString("utf8"));
    }
  };

  private readonly onEnd = () => {
    if (this.inputEnded) return;
    this.inputEnded = true;
    // A last message without its newline is still a message.
    const rest = this.pendingBytes > 0 ? this.takeLine(Buffer.alloc(0)) : undefined;
    if (rest && !this.skipping && !this.closed) this.handleLine(rest.toString("utf8"));
    this.options.onInputEnd?.();
  };

  /** The pending start of the line and its end, as one buffer; clears the pending parts. */
  private takeLine(end: Buffer): Buffer {
    if (this.pendingBytes === 0) return end;
    const line = Buffer.concat([...this.pending, end], this.pendingBytes + end.length);
    this.pending = [];
    this.pendingBytes = 0;
    return line;
  }

  private refuseOversized(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = true;
    this.reply(errorReply(null, ErrorCode.InvalidRequest, this.oversizedMessage()));
  }

  private oversizedMessage(): string {
    return `Invalid Request: a message longer than ${this.maxLineBytes} bytes was skipped`;
  }

  private reply(reply: TransportErrorReply): void {
    this.options.onRefused?.(reply.error.message);
    void this.write(reply);
  }

  private handleLine(text: string): void {
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reply(errorReply(null, ErrorCode.ParseError, PARSE_ERROR_MESSAGE));
      return;
    }
    const checked = checkJsonRpcMessage(value);
    if (!checked.ok) {
      if (checked.reply) this.reply(checked.reply);
      else this.options.onRefused?.(checked.reason);
      return;
    }
    const message = checked.message;
    if (isJSONRPCRequest(message)) {
      const unsupported = unsupportedVersionReply(message);
      if (unsupported) {
        this.reply(unsupported);
        return;
      }
      if (message.method === "initialize") {
        if (this.initialize.state !== "none") {
          this.reply(errorReply(message.id, ErrorCode.InvalidRequest, ALREADY_INITIALIZED_MESSAGE));
          return;
        }
        this.initialize = { state: "pending", id: message.id };
      }
      if (this.inFlight.has(message.id)) {
        this.reply(
          errorReply(
            message.id,
            ErrorCode.InvalidRequest,
            `Invalid Request: id ${JSON.stringify(message.id)} is already used by a request in flight`,
          ),
        );
        return;
      }
      this.inFlight.add(message.id);
      if (message.method === "subscriptions/listen" && this.options.onListen)
        this.listens.set(message.id, this.options.onListen(message.params));
    } else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      // The server sends no answer to a cancelled request (spec): it is no longer in flight.
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      const id = typeof requestId === "string" || Number.isSafeInteger(requestId) ? (requestId as RequestId) : undefined;
      if (id !== undefined) this.endListen(id);
      if (id !== undefined && this.inFlight.delete(id)) queueMicrotask(() => this.wakeIfIdle());
    }
    this.onmessage?.(message);
  }
}
