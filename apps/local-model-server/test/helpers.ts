import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/client";
import { connectInProcess, type InProcessConnection } from "@local-mcp/core/testing";
import { loadLocalModelConfig, type LocalModelConfig } from "../src/config.js";
import { createLocalModelServer } from "../src/server.js";

export const APP_DIR = fileURLToPath(new URL("..", import.meta.url));
/** The fixture project: a GSD `.planning` tree and a small TS project. */
export const PROJECT = fileURLToPath(new URL("./fixtures/project", import.meta.url));

export async function tempDir(prefix = "local-model-"): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A config built the way the bin builds it: from LOCAL_MODEL_* variables. */
export function configFor(env: Record<string, string>, cwd = APP_DIR): LocalModelConfig {
  return loadLocalModelConfig({ LOCAL_MCP_LOG_LEVEL: "silent", ...env }, cwd);
}

export interface Connected extends InProcessConnection {
  config: LocalModelConfig;
  /** Calls a tool; returns its structured body and whether it was an error. */
  call: (name: string, args: Record<string, unknown>) => Promise<{ isError: boolean; body: Record<string, unknown> }>;
}

/** A real SDK client on the server in process, with tools listed (so the client validates outputs). */
export async function connect(config: LocalModelConfig): Promise<Connected> {
  const connection = await connectInProcess(createLocalModelServer(config));
  await connection.client.listTools();
  return { ...connection, config, call: (name, args) => callTool(connection.client, name, args) };
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const body = result.structuredContent as Record<string, unknown>;
  const text = (result.content as { type: string; text: string }[])[0]?.text;
  if (text !== undefined && JSON.stringify(body) !== text) throw new Error("text content and structuredContent differ");
  return { isError: result.isError === true, body };
}

/** The error body of a failed call. */
export function errorOf(body: Record<string, unknown>) {
  return body.error as {
    code: string;
    status: number;
    message: string;
    recoverable: boolean;
    suggestion: string;
    details?: Record<string, unknown>;
  };
}

/** Data of a successful call. */
export function dataOf<T = Record<string, unknown>>(body: Record<string, unknown>): T {
  return body.data as T;
}
