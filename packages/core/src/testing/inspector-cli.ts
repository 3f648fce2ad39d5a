import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface InspectorCliOptions {
  /** The server command line, e.g. `[process.execPath, "dist/mcp.js"]`. */
  server: readonly string[];
  method: "tools/list" | "tools/call" | "resources/list" | "resources/read" | "resources/templates/list" | "prompts/list";
  toolName?: string;
  /** `--tool-arg key=value` pairs (the Inspector parses JSON values). */
  toolArgs?: Record<string, string>;
  uri?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Where to resolve `@modelcontextprotocol/inspector` from (a package that depends on it). */
  resolveFrom?: string;
}

/**
 * Runs the official MCP Inspector CLI (0.15.0) against a stdio server — a real, independent
 * client — and returns its parsed JSON answer.
 */
export async function runInspectorCli(options: InspectorCliOptions): Promise<unknown> {
  const require = createRequire(options.resolveFrom ?? import.meta.url);
  const cli = join(dirname(require.resolve("@modelcontextprotocol/inspector/package.json")), "cli/build/cli.js");
  const args = [cli, "--cli", ...options.server, "--method", options.method];
  if (options.toolName) args.push("--tool-name", options.toolName);
  for (const [key, value] of Object.entries(options.toolArgs ?? {})) args.push("--tool-arg", `${key}=${value}`);
  if (options.uri) args.push("--uri", options.uri);
  const env = Object.entries(options.env ?? {}).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  args.splice(2, 0, ...env);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, args, { timeout: options.timeoutMs ?? 30_000, maxBuffer: 32 * 1024 * 1024 }, (error, out, err) => {
      if (error) reject(new Error(`Inspector CLI failed (${options.method}): ${error.message}\n${err}`));
      else resolve(out);
    });
  });
  return JSON.parse(stdout) as unknown;
}
