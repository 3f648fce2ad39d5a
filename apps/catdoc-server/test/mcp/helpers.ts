/** Helpers for driving catdoc-mcp through the real SDK client, on temporary copies of the fixtures. */
import { assertLevelsNested, connectInProcess } from "@local-mcp/core/testing";
import type { InProcessConnection } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, expect } from "vitest";
import { loadCatDocConfig } from "../../src/config.js";
import { createCatDocServer } from "../../src/server.js";
import { copyExample, useTempDirs } from "../domain/helpers.js";

export { copyExample, useTempDirs, writeProject } from "../domain/helpers.js";

export type Level = "minimal" | "standard" | "full";
export type Body = Record<string, unknown>;

export interface ErrorBody {
  code: string;
  status: number;
  message: string;
  recoverable: boolean;
  suggestion: string;
  details?: Record<string, unknown>;
}

/** Connections closed after each test of the file that calls this. */
export function useCatDoc() {
  const tempDir = useTempDirs();
  const open: InProcessConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  const connect = async (root: string, env: Record<string, string> = {}) => {
    const config = loadCatDocConfig({ CATDOC_PROJECT_PATH: root, LOCAL_MCP_LOG_LEVEL: "silent", ...env }, "/");
    const connection = await connectInProcess(createCatDocServer(config));
    open.push(connection);
    return connection.client;
  };
  /** A client on a fresh copy of an example of the original tool. */
  const example = async (name: "math-docs" | "dev-project") => {
    const root = await copyExample(await tempDir(), name);
    return { root, client: await connect(root) };
  };
  return { tempDir, connect, example };
}

export async function callRaw(client: Client, name: string, args: Record<string, unknown> = {}) {
  return client.callTool({ name, arguments: args });
}

/** Calls a tool that must succeed; returns its structuredContent (checked equal to the text content). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Body> {
  const result = await callRaw(client, name, args);
  if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  const body = result.structuredContent as Body;
  const content = result.content as { type: string; text: string }[];
  expect(JSON.parse(content[0]?.text ?? "null")).toEqual(body);
  return body;
}

/** Calls a tool that must fail with a tool error; returns the error body. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ErrorBody> {
  const result = await callRaw(client, name, args);
  expect(result.isError, `${name} should fail: ${JSON.stringify(result.structuredContent)}`).toBe(true);
  return (result.structuredContent as { error: ErrorBody }).error;
}

/** The tool's result at every level; checks minimal ⊆ standard ⊆ full and that minimal is smaller than full. */
export async function levels(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<Level, Body>> {
  const out = {
    minimal: await call(client, name, { ...args, response_level: "minimal" }),
    standard: await call(client, name, { ...args, response_level: "standard" }),
    full: await call(client, name, { ...args, response_level: "full" }),
  };
  assertLevelsNested(out);
  expect(JSON.stringify(out.minimal).length).toBeLessThan(JSON.stringify(out.full).length);
  return out;
}
