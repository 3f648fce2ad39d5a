/**
 * One fuzzed server process and the real SDK client (`@modelcontextprotocol/client`) on its stdio,
 * in one protocol era (core's `spawnStdioServer`, which records every stdout line and flags any
 * that is not JSON-RPC): `legacy` connects with the 2025-11-25 `initialize` handshake, `modern`
 * pins 2026-07-28 (the client probes `server/discover` on this same process and sends the `_meta`
 * envelope on every request). Calls go through `client.callTool`; only arguments nested deeper
 * than `JSON.stringify` can go (Node 20 overflows near 5,000 levels) are written to stdin as raw
 * JSON-RPC text — in the modern era with the envelope the client would add — and their answers
 * taken from the same transport before the client sees them.
 */
import { MODERN_PROTOCOL_VERSION, spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  specTypeSchemas,
  type CallToolResult,
  type JSONRPCMessage,
  type Tool,
} from "@modelcontextprotocol/client";
import type { Era } from "./era.js";
import { materialize, needsRawJson, wireJson } from "./wire-value.js";

export interface ServerLaunch {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
}

export type CallOutcome =
  | { kind: "result"; result: CallToolResult; latencyMs: number; raw: boolean }
  | { kind: "rpc-error"; code: number; message: string; latencyMs: number; raw: boolean }
  | { kind: "timeout"; latencyMs: number; raw: boolean }
  | { kind: "closed"; message: string; latencyMs: number; raw: boolean }
  | { kind: "client-error"; message: string; latencyMs: number; raw: boolean };

interface PendingRaw {
  resolve: (message: JSONRPCMessage) => void;
}

function messageOf(error: unknown): string {
  if (error instanceof SdkError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export class FuzzConnection {
  private exitedWith: string | undefined;
  private readonly pendingRaw = new Map<string, PendingRaw>();
  private rawCounter = 0;
  private onExit: (() => void) | undefined;

  private constructor(
    readonly spawned: SpawnedStdioServer,
    readonly era: Era,
  ) {
    spawned.child.once("exit", (code, signal) => {
      const stderr = spawned.stderr().trim().split("\n").slice(-6).join("\n");
      this.exitedWith = `exited with code ${code} signal ${signal}${stderr ? `; stderr ends:\n${stderr.slice(-1_500)}` : ""}`;
      this.onExit?.();
    });
    // A write to a process that died is reported by the crash check, not thrown at the harness.
    spawned.child.stdin.on("error", () => undefined);
    const transport = spawned.client.transport;
    if (!transport) throw new Error("the client has no transport");
    const forward = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const id = "id" in message ? message.id : undefined;
      const pending = typeof id === "string" ? this.pendingRaw.get(id) : undefined;
      if (pending && typeof id === "string") {
        this.pendingRaw.delete(id);
        pending.resolve(message);
        return;
      }
      forward?.call(transport, message, extra);
    };
  }

  /** Starts the server and connects in `era`; a server that does not serve the era fails here with the SDK's reason. */
  static async start(launch: ServerLaunch, era: Era): Promise<FuzzConnection> {
    let spawned: SpawnedStdioServer;
    try {
      spawned = await spawnStdioServer({
        command: launch.command,
        args: launch.args,
        env: launch.env,
        cwd: launch.cwd,
        readyTimeoutMs: 60_000,
        era,
      });
    } catch (error) {
      const how = era === "modern" ? `pinned to ${MODERN_PROTOCOL_VERSION}` : "initialize handshake";
      throw new Error(`${era} era: starting the server and connecting the client (${how}) failed: ${messageOf(error)}`);
    }
    const reached = spawned.client.getProtocolEra();
    if (reached !== era) {
      await spawned.close(5_000);
      throw new Error(`${era} era: the client connected in the ${reached ?? "unknown"} era instead`);
    }
    return new FuzzConnection(spawned, era);
  }

  /** Why the process is gone, or undefined while it runs. */
  get exited(): string | undefined {
    return this.exitedWith;
  }

  /** Waits up to `ms` for the process to exit (after an error that suggests it is going). */
  async settle(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (!this.exitedWith && Date.now() < until) {
      if (this.spawned.child.stdin.destroyed && Date.now() + 50 >= until) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Whether calls can still reach the process. */
  get usable(): boolean {
    return !this.exitedWith && !this.spawned.child.stdin.destroyed;
  }

  get nonJsonLines(): readonly string[] {
    return this.spawned.nonJsonRpcLines;
  }

  stderr(): string {
    return this.spawned.stderr();
  }

  /** The server's tools; listing also gives the client each tool's output schema, which it checks every result against. */
  async listTools(): Promise<Tool[]> {
    return (await this.spawned.client.listTools()).tools;
  }

  async callTool(tool: string, args: unknown, timeoutMs: number): Promise<CallOutcome> {
    if (needsRawJson(args)) return this.callRaw(tool, args, timeoutMs);
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    try {
      const result = await this.spawned.client.callTool(
        { name: tool, arguments: materialize(args) as Record<string, unknown> },
        { timeout: timeoutMs },
      );
      return { kind: "result", result, latencyMs: elapsed(), raw: false };
    } catch (error) {
      return this.outcomeOfError(error, elapsed(), false);
    }
  }

  private outcomeOfError(error: unknown, latencyMs: number, raw: boolean): CallOutcome {
    if (error instanceof ProtocolError) {
      if (this.exitedWith) return { kind: "closed", message: error.message, latencyMs, raw };
      return { kind: "rpc-error", code: error.code, message: error.message, latencyMs, raw };
    }
    if (error instanceof SdkError) {
      if (error.code === SdkErrorCode.RequestTimeout) return { kind: "timeout", latencyMs, raw };
      if (error.code === SdkErrorCode.ConnectionClosed) return { kind: "closed", message: error.message, latencyMs, raw };
    }
    const message = messageOf(error);
    if (this.exitedWith) return { kind: "closed", message, latencyMs, raw };
    return { kind: "client-error", message, latencyMs, raw };
  }

  /** What a modern request's or notification's params carry besides their own: the envelope the SDK client adds. */
  private envelope(): string {
    if (this.era !== "modern") return "";
    const version = this.spawned.client.getNegotiatedProtocolVersion() ?? MODERN_PROTOCOL_VERSION;
    const meta = {
      [PROTOCOL_VERSION_META_KEY]: version,
      [CLIENT_INFO_META_KEY]: { name: "local-mcp-fuzz", version: "0.0.0" },
      [CLIENT_CAPABILITIES_META_KEY]: {},
    };
    return `,"_meta":${JSON.stringify(meta)}`;
  }

  /** Sends a request as JSON text written by hand (for values too deep for JSON.stringify). */
  private async callRaw(tool: string, args: unknown, timeoutMs: number): Promise<CallOutcome> {
    this.rawCounter += 1;
    const id = `fuzz-raw-${this.rawCounter}`;
    const line = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${wireJson(args)}${this.envelope()}}}\n`;
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<JSONRPCMessage | "timeout" | "closed">((resolve) => {
      this.pendingRaw.set(id, { resolve });
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
      this.onExit = () => resolve("closed");
      if (this.exitedWith) resolve("closed");
    });
    this.spawned.child.stdin.write(line);
    const message = await answer;
    clearTimeout(timer);
    this.pendingRaw.delete(id);
    this.onExit = undefined;
    if (message === "closed") return { kind: "closed", message: this.exitedWith ?? "closed", latencyMs: elapsed(), raw: true };
    if (message === "timeout") {
      this.spawned.child.stdin.write(
        `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${JSON.stringify(id)},"reason":"fuzz timeout"${this.envelope()}}}\n`,
      );
      return { kind: "timeout", latencyMs: elapsed(), raw: true };
    }
    if ("error" in message)
      return { kind: "rpc-error", code: message.error.code, message: message.error.message, latencyMs: elapsed(), raw: true };
    if (!("result" in message))
      return { kind: "client-error", message: "the answer was neither a result nor an error", latencyMs: elapsed(), raw: true };
    return this.rawResult(message.result, elapsed());
  }

  /** A raw answer's result, held to what the client would hold it to: a modern one must say it is complete. */
  private async rawResult(wire: unknown, latencyMs: number): Promise<CallOutcome> {
    let body = wire;
    if (this.era === "modern") {
      const { resultType, ...rest } = (wire ?? {}) as Record<string, unknown>;
      if (resultType !== "complete")
        return {
          kind: "client-error",
          message: `a ${MODERN_PROTOCOL_VERSION} result must carry resultType "complete" (got ${JSON.stringify(resultType)})`,
          latencyMs,
          raw: true,
        };
      body = rest;
    }
    const checked = await specTypeSchemas.CallToolResult["~standard"].validate(body);
    if (checked.issues)
      return {
        kind: "client-error",
        message: `the result is not a CallToolResult: ${checked.issues.map((i) => i.message).join("; ")}`,
        latencyMs,
        raw: true,
      };
    return { kind: "result", result: checked.value as CallToolResult, latencyMs, raw: true };
  }

  /**
   * Whether the server still answers, within the time given: a ping in the legacy era; in the
   * modern era, which has no ping, `server/discover`.
   */
  async ping(timeoutMs = 10_000): Promise<boolean> {
    try {
      if (this.era === "modern") await this.spawned.client.discover({ timeout: timeoutMs });
      else await this.spawned.client.ping({ timeout: timeoutMs });
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.exitedWith) return;
    if (this.spawned.child.stdin.destroyed) this.spawned.child.kill("SIGKILL");
    await this.spawned.close(5_000);
  }
}
