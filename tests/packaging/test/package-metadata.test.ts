/**
 * Each server's package.json is complete for npm (issue #14): public, described, licensed, its
 * repository folder, Node engine, files, bins without `./` (npm drops those), a default bin named
 * like the package that starts the MCP server, the MCP Registry name, and dependencies that are only what the bundle leaves external. One version across the
 * workspace. And nothing in the workspace depends on a package whose bins point into a dist/ that
 * a fresh clone does not have yet (pnpm's first install warned "Failed to create bin" ~80 times).
 */
import { normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { NEVER_BUNDLED } from "../../../scripts/bundle-app.mjs";
import { REPO, SERVERS, readPackage, workspacePackages } from "./support/workspace.js";

/** What a bundle may leave external, plus files read at run time. */
const RUNTIME_DEPENDENCIES = new Set([
  ...NEVER_BUNDLED,
  // catdoc's dashboard serves cytoscape's browser build from node_modules.
  "cytoscape",
]);

describe("the workspace", () => {
  it("versions every package together", () => {
    const versions = new Map(workspacePackages().map(({ pkg }) => [pkg.name, pkg.version]));
    const root = readPackage(REPO).version;
    expect(Object.fromEntries([...versions].filter(([, version]) => version !== root))).toEqual({});
  });

  it("has no package depending on a workspace package with bins (a fresh clone has no dist/ to link them to)", () => {
    const packages = workspacePackages();
    const withBins = new Set(packages.filter(({ pkg }) => Object.keys(pkg.bin ?? {}).length > 0).map(({ pkg }) => pkg.name));
    const offending: string[] = [];
    for (const { pkg } of packages) {
      for (const field of ["dependencies", "devDependencies", "optionalDependencies"] as const) {
        for (const [dep, spec] of Object.entries(pkg[field] ?? {})) {
          if (spec.startsWith("workspace:") && withBins.has(dep)) offending.push(`${pkg.name} → ${dep}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });
});

describe.each(SERVERS)("$name package.json", ({ app, cli, dir, name }) => {
  const pkg = readPackage(dir);

  it("is public and described for npm", () => {
    expect(pkg.name).toBe(name);
    expect(pkg.private).toBeUndefined();
    expect(pkg.description?.length).toBeGreaterThan(20);
    expect(pkg.license).toBe("MIT");
    expect(pkg.keywords).toContain("mcp");
    expect(pkg.repository).toEqual({ type: "git", url: "git+https://github.com/local-mcp/local-mcp.git", directory: `apps/${app}` });
    expect(pkg.engines).toEqual({ node: ">=20.19" });
    expect(pkg.files).toEqual(expect.arrayContaining(["dist", "server.json"]));
  });

  it("has bins without ./, and a default bin named like the package that starts the MCP server", () => {
    const bins = pkg.bin ?? {};
    for (const file of Object.values(bins)) expect(file).toMatch(/^dist\/[\w-]+\.js$/);
    expect(Object.keys(bins).sort()).toEqual([app, cli, `${cli}-mcp`].sort());
    expect(bins[app]).toBe(bins[`${cli}-mcp`]);
    expect(normalize(bins[cli] ?? "")).toBe("dist/cli.js");
  });

  it("names the server for the MCP Registry", () => {
    expect(pkg.mcpName).toBe(`io.github.local-mcp/${app}`);
  });

  it("depends only on what its bundle leaves external (core and bundled libraries are devDependencies)", () => {
    for (const [dep, spec] of Object.entries(pkg.dependencies ?? {})) {
      expect(RUNTIME_DEPENDENCIES.has(dep), `${dep} is bundled, so it is no dependency`).toBe(true);
      expect(spec).not.toMatch(/^workspace:/);
    }
    for (const [dep, meta] of Object.entries(pkg.peerDependenciesMeta ?? {})) expect(meta.optional, `peer ${dep}`).toBe(true);
    expect(pkg.devDependencies?.["@local-mcp/core"]).toBe("workspace:*");
  });
});
