/**
 * One fuzzed server process and the real SDK client on its stdio (core's spawnStdioServer, which
 * records every stdout line and flags any that is not JSON-RPC). Calls go through
 * `client.callTool`; only arguments nested deeper than `JSON.stringify` can go (Node 20 overflows
 * near 5,000 levels) are written to stdin as raw JSON-RPC text, and their answers taken from the
 * same transport before the client sees them.
 */
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
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

export class FuzzConnection {
  private exitedWith: string | undefined;
  private readonly pendingRaw = new Map<string, PendingRaw>();
  private rawCounter = 0;
  private onExit: (() => void) | undefined;

  private constructor(readonly spawned: SpawnedStdioServer) {
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

  static async start(launch: ServerLaunch): Promise<FuzzConnection> {
    const spawned = await spawnStdioServer({ command: launch.command, args: launch.args, env: launch.env, cwd: launch.cwd, readyTimeoutMs: 60_000 });
    return new FuzzConnection(spawned);
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

  async callTool(tool: string, args: unknown, timeoutMs: number): Promise<CallOutcome> {
    if (needsRawJson(args)) return this.callRaw(tool, args, timeoutMs);
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    try {
      const params = { name: tool, arguments: materialize(args) as Record<string, unknown> };
      const result = (await this.spawned.client.callTool(params, CallToolResultSchema, { timeout: timeoutMs })) as CallToolResult;
      return { kind: "result", result, latencyMs: elapsed(), raw: false };
    } catch (error) {
      return this.outcomeOfError(error, elapsed(), false);
    }
  }

  private outcomeOfError(error: unknown, latencyMs: number, raw: boolean): CallOutcome {
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) return { kind: "timeout", latencyMs, raw };
      if (error.code === ErrorCode.ConnectionClosed || this.exitedWith) return { kind: "closed", message: error.message, latencyMs, raw };
      return { kind: "rpc-error", code: error.code, message: error.message, latencyMs, raw };
    }
    const message = error instanceof Error ? error.message : String(error);
    if (this.exitedWith) return { kind: "closed", message, latencyMs, raw };
    return { kind: "client-error", message, latencyMs, raw };
  }

  /** Sends a request as JSON text written by hand (for values too deep for JSON.stringify). */
  private async callRaw(tool: string, args: unknown, timeoutMs: number): Promise<CallOutcome> {
    this.rawCounter += 1;
    const id = `fuzz-raw-${this.rawCounter}`;
    const line = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${wireJson(args)}}}\n`;
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
      this.spawned.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "fuzz timeout" } })}\n`);
      return { kind: "timeout", latencyMs: elapsed(), raw: true };
    }
    if ("error" in message) return { kind: "rpc-error", code: message.error.code, message: message.error.message, latencyMs: elapsed(), raw: true };
    if (!("result" in message)) return { kind: "client-error", message: "the answer was neither a result nor an error", latencyMs: elapsed(), raw: true };
    const parsed = CallToolResultSchema.safeParse(message.result);
    if (!parsed.success) return { kind: "client-error", message: `the result is not a CallToolResult: ${parsed.error.message}`, latencyMs: elapsed(), raw: true };
    return { kind: "result", result: parsed.data, latencyMs: elapsed(), raw: true };
  }

  /** Answers a ping within the time given. */
  async ping(timeoutMs = 10_000): Promise<boolean> {
    try {
      await this.spawned.client.ping({ timeout: timeoutMs });
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
