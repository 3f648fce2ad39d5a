/**
 * A real library for a test: a DuckDB file in a fresh temporary folder, the shared pooled
 * Python environments (one folder for the whole suite, keyed by dependency hash, so the
 * no-dependency venv is made once), the real gate tools, the local embedder and no critic unless
 * a test asks. The environment handed to the config is the test process's own minus any Gemini
 * key a developer may have set, plus the test's overrides.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Env } from "@local-mcp/core";
import { connectInProcess } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { runCli } from "../../src/cli/program.js";
import { loadSoloAssetsConfig } from "../../src/config.js";
import type { SoloAssetsConfig } from "../../src/config.js";
import { createSoloAssetsServer, serverServicesOf } from "../../src/server.js";
import { openSoloServices } from "../../src/services.js";
import type { SoloServices } from "../../src/services.js";

/** Pooled test environments shared by every test file and run (keyed by dependency hash). */
export const SHARED_ENVS_DIR = join(tmpdir(), "solo-assets-test-envs");

export interface TempLibrary {
  dir: string;
  dbPath: string;
  remove(): void;
}

export function tempLibrary(): TempLibrary {
  const dir = mkdtempSync(join(tmpdir(), "solo-assets-test-"));
  return { dir, dbPath: join(dir, "library.duckdb"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment a test's server gets. */
export function testEnv(dbPath: string, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(base)) if (/^(GOOGLE_API_KEY|GEMINI_API_KEY|SOLO_.*)$/.test(key)) delete base[key];
  const env: Record<string, string | undefined> = {
    ...base,
    SOLO_DB_PATH: dbPath,
    SOLO_ENVS_DIR: SHARED_ENVS_DIR,
    SOLO_EMBEDDER: "local",
    SOLO_CRITIC: "off",
    LOCAL_MCP_LOG_LEVEL: "warn",
    ...overrides,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export function testServices(dbPath: string, overrides: Record<string, string | undefined> = {}): SoloServices {
  return openSoloServices(loadSoloAssetsConfig(testEnv(dbPath, overrides) as Env, process.cwd()));
}

export interface SoloConnection {
  client: Client;
  services: SoloServices;
  close(): Promise<void>;
}

/** An SDK client connected in process to a server on its own services. */
export async function connectSolo(dbPath: string, overrides: Record<string, string | undefined> = {}): Promise<SoloConnection> {
  const services = testServices(dbPath, overrides);
  const connection = await connectInProcess(
    createSoloAssetsServer(services.config, { services: serverServicesOf(services), disposeServicesOnClose: true }),
  );
  return { client: connection.client, services, close: connection.close };
}

export interface ToolAnswer {
  isError: boolean;
  body: Record<string, unknown>;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: { timeout?: number } = {},
): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args }, { timeout: options.timeout ?? 120_000 });
  return { isError: result.isError === true, body: (result.structuredContent ?? {}) as Record<string, unknown> };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the `solo-assets` command line in process with `config`, capturing what it writes. */
export async function runSoloCli(config: () => SoloAssetsConfig, ...argv: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    io: { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } },
    config,
    version: "test",
    waitForStop: () => new Promise(() => undefined),
  });
  return { code, stdout, stderr };
}
