/**
 * A machine without Python 3, or with a Python that cannot make virtual environments (Debian
 * without python3-venv): the gate cannot run the tests, stores the function `unverified`, and
 * says why — a code and what to install — in the tool answer (minimal level), the CLI and the
 * dashboard's API. Made real: the bins run with a PATH that has no python3, or whose python3
 * refuses `-m venv` as Debian's does; the gate itself is not replaced.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { silentLogger } from "@local-mcp/core";
import { spawnStdioServer } from "@local-mcp/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { startDashboard } from "../src/dashboard/dashboard-server.js";
import { linkLintAndTypeTools, seedTypeCache } from "./helpers/gate-tools.js";
import { tempLibrary, testEnv, testServices } from "./helpers/test-library.js";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const library = tempLibrary();
afterAll(() => library.remove());

const REAL_PYTHON = "/usr/bin/python3";

/**
 * A folder for PATH with node (and bubblewrap when installed) but no python3. The real ruff and
 * mypy are there too (each starts its own interpreter by its absolute path, as a pipx install
 * does): the lint and type steps are not what these tests are about, and without them the gate
 * would take its npm fallbacks, a Node.js process per check.
 */
function binWithoutPython(name: string): string {
  const dir = join(library.dir, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(process.execPath, join(dir, "node"));
  symlinkSync("/usr/bin/bwrap", join(dir, "bwrap"));
  linkLintAndTypeTools(dir);
  return dir;
}

/** Adds a python3 that runs the real one but, like Debian's without python3-venv, cannot make a venv. */
function addPythonWithoutVenv(dir: string): void {
  const script = join(dir, "python3");
  writeFileSync(
    script,
    [
      "#!/bin/sh",
      'if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then',
      "  echo 'The virtual environment was not created successfully because ensurepip is not' >&2",
      "  echo 'available.  On Debian/Ubuntu systems, you need to install the python3-venv' >&2",
      "  echo 'package using the following command.' >&2",
      "  echo '' >&2",
      "  echo '    apt install python3.11-venv' >&2",
      "  exit 1",
      "fi",
      `exec ${REAL_PYTHON} "$@"`,
      "",
    ].join("\n"),
  );
  chmodSync(script, 0o755);
}

const SLUG = {
  name: "shout",
  code: 'def shout(text: str) -> str:\n    """Upper-case a text."""\n    return text.upper()\n',
  description: "Upper-case a text",
  test_cases: [{ input: { text: "a" }, expected: "A" }],
};

const CASES = [
  { label: "no python3 on PATH", code: "PYTHON_UNAVAILABLE", suggestion: /install python 3/i, bin: () => binWithoutPython("no-python") },
  {
    label: "a python3 without venv",
    code: "VENV_UNAVAILABLE",
    suggestion: /python3-venv \(apt install python3-venv\)/,
    bin: () => {
      const dir = binWithoutPython("no-venv");
      addPythonWithoutVenv(dir);
      return dir;
    },
  },
];

describe.each(CASES)("the gate on a machine with $label", ({ code, suggestion, bin }) => {
  const path = bin();
  // Fresh pools (no environment can be made here), their mypy cache started warm.
  const env = (db: string) => testEnv(db, { PATH: path, SOLO_ENVS_DIR: seedTypeCache(join(path, "envs")), SOLO_PYTHON: undefined });

  it("the tool answer says why the tests did not run, already at the minimal level", async () => {
    const server = await spawnStdioServer({
      command: process.execPath,
      args: [join(DIST, "mcp.js")],
      env: env(join(path, "mcp.duckdb")),
      readyTimeoutMs: 60_000,
    });
    try {
      const result = await server.client.callTool(
        { name: "save_function", arguments: { ...SLUG, response_level: "minimal" } },
        { timeout: 120_000 },
      );
      expect(result.isError).not.toBe(true);
      const body = result.structuredContent as Record<string, unknown>;
      expect(body).toMatchObject({ status: "unverified", unverified: { step: "test", code } });
      const unverified = body.unverified as { message: string; suggestion: string };
      expect(unverified.message.length).toBeGreaterThan(10);
      expect(unverified.suggestion).toMatch(suggestion);
    } finally {
      await server.close();
    }
  }, 180_000);

  it("`solo-assets save` prints the reason and what to install", async () => {
    const file = join(path, "shout.py");
    writeFileSync(file, SLUG.code);
    const tests = join(path, "shout-tests.json");
    writeFileSync(tests, JSON.stringify(SLUG.test_cases));
    const saved = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(DIST, "cli.js"), "save", file, "--name", "shout", "--description", SLUG.description, "--tests", tests],
        { env: env(join(path, "cli.duckdb")), timeout: 120_000 },
        (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
      );
    });
    expect(saved.stdout).toContain("shout v1: unverified");
    expect(saved.stdout).toMatch(new RegExp(`^unverified: ${code}: .+ — `, "m"));
    expect(saved.stdout).toMatch(suggestion);
    // Stored, not rejected: the exit status is 0 (1 is for a rejection).
    expect(saved.code).toBe(0);
  }, 180_000);

  it("the dashboard's API gives the reason with the function's gate report", async () => {
    const db = join(path, "dashboard.duckdb");
    const services = testServices(db, { PATH: path, SOLO_ENVS_DIR: seedTypeCache(join(path, "envs-dashboard")), SOLO_PYTHON: undefined });
    try {
      await services.library.save(
        {
          name: SLUG.name,
          code: SLUG.code,
          description: SLUG.description,
          tags: [],
          dependencies: [],
          testCases: SLUG.test_cases,
          skipTests: false,
        },
        { signal: new AbortController().signal },
      );
    } finally {
      await services.dispose();
    }
    const dashboard = await startDashboard({
      openServices: () => testServices(db, { PATH: path }),
      port: 0,
      token: "t".repeat(32),
      version: "test",
      logger: silentLogger,
    });
    try {
      const view = (await (await fetch(`${dashboard.url}api/functions/shout`)).json()) as {
        function: { status: string; gate: { unverified?: { code: string; suggestion: string } } };
      };
      expect(view.function.status).toBe("unverified");
      expect(view.function.gate.unverified).toMatchObject({ code });
      expect(view.function.gate.unverified?.suggestion).toMatch(suggestion);
    } finally {
      await dashboard.close();
    }
  }, 180_000);
});
