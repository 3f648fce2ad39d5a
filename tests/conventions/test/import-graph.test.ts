/**
 * The import graph of every package's src/, read by dependency-cruiser from the TypeScript sources,
 * against the project's layering:
 * - an app never imports another app, and core never imports an app;
 * - an app reaches core only through core's published entry points (`@local-mcp/core`,
 *   `@local-mcp/core/<subpath>` in core's package.json "exports"), never through a relative path
 *   into packages/core;
 * - source never imports a test file;
 * - no import cycle at run time (type-only imports cost nothing when the code runs and are left out);
 * - every import resolves.
 */
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseOptions, type IViolation } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const RULES: ICruiseOptions["ruleSet"] = {
  forbidden: [
    { name: "app-imports-other-app", severity: "error", from: { path: "^apps/([^/]+)/" }, to: { path: "^apps/", pathNot: "^apps/$1/" } },
    { name: "core-imports-app", severity: "error", from: { path: "^packages/core/" }, to: { path: "^apps/" } },
    { name: "app-reaches-into-core-source", severity: "error", from: { path: "^apps/" }, to: { path: "^packages/core/src/" } },
    { name: "source-imports-test", severity: "error", from: { path: "/src/" }, to: { path: "/test/" } },
    { name: "cycle", severity: "error", from: {}, to: { circular: true } },
    { name: "unresolved", severity: "error", from: {}, to: { couldNotResolve: true } },
  ],
};

async function violations(): Promise<{ modules: number; violations: IViolation[] }> {
  const result = await cruise(
    ["packages/core/src", "apps/catdoc-server/src", "apps/local-model-server/src", "apps/mochi-server/src", "apps/solo-assets-server/src"],
    {
      baseDir: ROOT,
      ruleSet: RULES,
      validate: true,
      tsPreCompilationDeps: false,
      // Packages resolve as Node resolves them at run time: through their package.json "exports".
      enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "node", "default"] },
      doNotFollow: { path: "node_modules|/dist/" },
      exclude: { path: "/test/|/dist/|\\.d\\.ts$" },
    },
  );
  if (typeof result.output === "string") throw new Error("dependency-cruiser answered text, expected its JSON result");
  return { modules: result.output.modules.length, violations: result.output.summary.violations };
}

describe("import graph", () => {
  it("follows the layering: apps apart, core below them through its exports, no cycles, everything resolves", async () => {
    const { modules, violations: found } = await violations();
    expect(modules).toBeGreaterThan(300);
    const lines = found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`);
    expect(lines).toEqual([]);
  });
});
