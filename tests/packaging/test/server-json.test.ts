/**
 * apps/<app>/server.json is each server's entry for the MCP Registry (schema 2025-12-11), kept in
 * step with package.json (name = mcpName, version, description, the npm package) and with the
 * environment variables the server documents: the Environment section of its built `*-mcp --help`
 * (the app's own variables and core's LOCAL_MCP_* ones; "(or NAME)" names an alternative). Keys
 * are secrets. The packed package ships it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installedPackage } from "./support/installed.js";
import { SERVERS, readPackage } from "./support/workspace.js";

const SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

interface EnvironmentVariable {
  name: string;
  description: string;
  isRequired: boolean;
  isSecret: boolean;
}

interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  repository?: { url: string; source: string; subfolder?: string };
  packages: {
    registryType: string;
    identifier: string;
    version: string;
    transport: { type: string };
    environmentVariables: EnvironmentVariable[];
  }[];
}

/** NAME → description from the Environment section of a server's --help. */
export function documentedVariables(help: string): Map<string, string> {
  const section = help.split(/^Environment:\n/m)[1]?.split(/\n\s*\n/)[0];
  if (!section) throw new Error(`no Environment section in:\n${help}`);
  const found = new Map<string, string>();
  for (const line of section.split("\n")) {
    const match = /^\s+([A-Z][A-Z0-9_]+)\s+(\S.*)$/.exec(line);
    if (!match) throw new Error(`unexpected line in the Environment section: ${line}`);
    const [, name = "", description = ""] = match;
    found.set(name, description);
    for (const [, alternative = ""] of description.matchAll(/\(or ([A-Z][A-Z0-9_]+)\)/g)) found.set(alternative, description);
  }
  return found;
}

describe.each(SERVERS)("$app/server.json", ({ app, cli, dir, name }) => {
  const pkg = readPackage(dir);
  const server = JSON.parse(readFileSync(join(dir, "server.json"), "utf8")) as ServerJson;

  it("is in the MCP Registry's format and matches package.json", () => {
    expect(server.$schema).toBe(SCHEMA);
    expect(server.name).toBe(pkg.mcpName);
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(server.version).toBe(pkg.version);
    expect(server.description).toBe(pkg.description);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.repository).toEqual({ url: "https://github.com/local-mcp/local-mcp", source: "github", subfolder: `apps/${app}` });
    expect(server.packages).toHaveLength(1);
    const [npm] = server.packages;
    expect(npm).toMatchObject({ registryType: "npm", identifier: name, version: pkg.version, transport: { type: "stdio" } });
  });

  it("lists exactly the environment variables `--help` documents, keys as secrets", () => {
    const help = spawnSync(process.execPath, [join(dir, `dist/mcp.js`), "--help"], { cwd: tmpdir(), encoding: "utf8" });
    expect(help.status, `${cli}-mcp --help: ${help.stderr}`).toBe(0);
    const documented = documentedVariables(help.stdout);
    const listed = server.packages[0]?.environmentVariables ?? [];
    expect(listed.map((variable) => variable.name).sort()).toEqual([...documented.keys()].sort());
    for (const variable of listed) {
      expect(variable.description, variable.name).toBeTruthy();
      expect(variable.isRequired, variable.name).toBe(false);
      expect(variable.isSecret, variable.name).toBe(/_API_KEY$/.test(variable.name));
    }
    expect(documented.has("LOCAL_MCP_LOG_LEVEL")).toBe(true);
  });

  it("ships in the packed package", () => {
    const installed = installedPackage(name);
    expect(existsSync(join(installed.dir, "server.json"))).toBe(true);
    expect(JSON.parse(readFileSync(join(installed.dir, "server.json"), "utf8"))).toEqual(server);
  });
});
