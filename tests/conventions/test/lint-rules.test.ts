/**
 * The conventions lint enforces (eslint.config.js), checked on snippets linted as if they were
 * files of the project: each rule fires where it should and stays quiet where the code is allowed.
 */
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function rulesFired(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe("lint", () => {
  it("bans console.log in server code (stdout carries JSON-RPC only)", async () => {
    expect(await rulesFired('console.log("hi");\n', "apps/mochi-server/src/tools/example.ts")).toContain("no-console");
    expect(await rulesFired('console.log("hi");\n', "bench/example.mjs")).not.toContain("no-console");
  });

  it("reads process.env only in config and entry modules", async () => {
    const code = "export const home = process.env.HOME;\n";
    expect(await rulesFired(code, "apps/mochi-server/src/tools/example.ts")).toContain("no-restricted-properties");
    expect(await rulesFired(code, "packages/core/src/server/example.ts")).toContain("no-restricted-properties");
    for (const allowed of ["apps/mochi-server/src/config.ts", "apps/mochi-server/src/mcp.ts", "apps/mochi-server/src/cli.ts", "packages/core/src/config.ts"]) {
      expect(await rulesFired(code, allowed)).not.toContain("no-restricted-properties");
    }
  });

  it("imports node-llama-cpp only inside core/src/inference, statically or dynamically", async () => {
    const staticImport = 'import { getLlama } from "node-llama-cpp";\nexport const llama = getLlama;\n';
    const dynamicImport = 'export const llama = () => import("node-llama-cpp");\n';
    expect(await rulesFired(staticImport, "apps/mochi-server/src/domain/example.ts")).toContain("no-restricted-imports");
    expect(await rulesFired(dynamicImport, "apps/mochi-server/src/domain/example.ts")).toContain("no-restricted-syntax");
    expect(await rulesFired(staticImport, "packages/core/src/inference/example.ts")).toEqual([]);
    expect(await rulesFired(dynamicImport, "packages/core/src/inference/example.ts")).toEqual([]);
  });
});
