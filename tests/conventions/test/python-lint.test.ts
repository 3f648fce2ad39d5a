/**
 * The project's own Python (mochi's trainer, its benchmark, test fixtures, the solo-assets
 * examples; not the sample repositories tests index) is held to ruff, as pnpm lint holds TypeScript to ESLint and Prettier: `ruff check`
 * and `ruff format --check` on every tracked .py file. .ci/run installs ruff; without it the test
 * fails under CI and is skipped with its reason elsewhere.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const ruff = spawnSync("ruff", ["--version"], { encoding: "utf8" });
const missing = ruff.error !== undefined || ruff.status !== 0;
if (missing && process.env["CI"] === "true") throw new Error("ruff is not installed: .ci/run installs it with pip");
if (missing) process.stderr.write("python-lint: skipped, ruff is not on PATH (pip install ruff)\n");

// Sample repositories the tests index are users' code as found, not the project's: left as they are.
const SAMPLE_REPOSITORY = /\/test\/fixtures\/(project|sample-repo)\//;
const files = execFileSync("git", ["ls-files", "*.py"], { cwd: ROOT, encoding: "utf8" })
  .split("\n")
  .filter((file) => file !== "" && !SAMPLE_REPOSITORY.test(file));

describe.skipIf(missing)("the project's Python", () => {
  it("is tracked (the check has files to look at)", () => {
    expect(files).toContain("apps/mochi-server/python/mochi_train.py");
  });

  it.each([
    ["check", ["check", "--no-cache"]],
    ["format --check", ["format", "--check", "--no-cache"]],
  ])("passes ruff %s", (_name, args) => {
    const run = spawnSync("ruff", [...args, ...files], { cwd: ROOT, encoding: "utf8" });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });
});
