/**
 * The conventions lint enforces (eslint.config.js), checked on snippets linted as if they were
 * files of the project: each rule fires where it should and stays quiet where the code is allowed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import * as prettier from "prettier";
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
    for (const allowed of [
      "apps/mochi-server/src/config.ts",
      "apps/mochi-server/src/mcp.ts",
      "apps/mochi-server/src/cli.ts",
      "packages/core/src/config.ts",
    ]) {
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

  it("names files in kebab-case; example projects and test fixtures keep their own names", async () => {
    const code = "export const x = 1;\n";
    const rule = "check-file/filename-naming-convention";
    for (const bad of ["apps/catdoc-server/src/tools/catdoc_get_graph.ts", "packages/core/src/files/pathGuard.ts", "bench/Startup.mjs"]) {
      expect(await rulesFired(code, bad), bad).toContain(rule);
    }
    for (const good of [
      "apps/catdoc-server/src/tools/catdoc-get-graph.ts",
      "apps/mochi-server/test/level-shares.test.ts",
      "scripts/pack-install.d.mts",
      "apps/local-model-server/test/fixtures/project/src/stores/familyStore.ts",
      "examples/local-model/src/store/habitStore.ts",
    ]) {
      expect(await rulesFired(code, good), good).not.toContain(rule);
    }
  });
});

describe("formatting", () => {
  const ignorePath = join(ROOT, ".prettierignore");
  const checked = async (code: string, file: string) =>
    prettier.check(code, { ...(await prettier.resolveConfig(join(ROOT, file))), filepath: join(ROOT, file) });

  it("`pnpm lint` checks every file with Prettier before ESLint runs", () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.lint).toMatch(/^prettier --check \. && eslint /);
  });

  it("rejects unformatted code and accepts it formatted, at the project's width", async () => {
    const file = "apps/mochi-server/src/tools/example.ts";
    const messy = "export const  answer = {a:1,\n b: 'two'}\n";
    expect(await checked(messy, file)).toBe(false);
    const formatted = await prettier.format(messy, { ...(await prettier.resolveConfig(join(ROOT, file))), filepath: join(ROOT, file) });
    expect(formatted).toBe('export const answer = { a: 1, b: "two" };\n');
    expect(await checked(formatted, file)).toBe(true);
    const wide = `export const words = [${Array.from({ length: 12 }, (_, i) => `"word${i}"`).join(", ")}];\n`;
    expect(wide.length).toBeGreaterThan(100);
    expect(wide.length).toBeLessThanOrEqual(141);
    expect(await checked(wide, file)).toBe(true);
  });

  it("leaves data alone: examples, fixtures, templates, Markdown", async () => {
    const ignored = async (file: string) => (await prettier.getFileInfo(join(ROOT, file), { ignorePath })).ignored;
    for (const data of [
      "examples/mochi/src/index.ts",
      "apps/mochi-server/test/fixtures/sample-repo.catalog.json",
      "apps/local-model-server/templates/plan.md.hbs",
      "docs/catdoc.md",
      "tests/fuzz/regressions/example.json",
    ]) {
      expect(await ignored(data), data).toBe(true);
    }
    for (const code of ["apps/mochi-server/src/server.ts", "packages/core/test/path-guard.test.ts", "bench/run.mjs", "turbo.json"]) {
      expect(await ignored(code), code).toBe(false);
    }
  });
});
