/**
 * The quality gate's cases, through save_function on a real server: real ruff/mypy (or their
 * fallbacks), real pooled venvs, real sandboxed Python subprocesses, a real DuckDB file.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveView, step } from "./helpers/gate-views.js";
import { callTool, connectSolo, tempLibrary } from "./helpers/test-library.js";
import type { SoloConnection, TempLibrary } from "./helpers/test-library.js";

const SLUGIFY = `import re


def slugify(text: str) -> str:
    """Turn text into a URL slug: lowercase words joined by hyphens.

    Args:
        text: any string.

    Returns:
        The slug, e.g. "Hello World" -> "hello-world".
    """
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))
`;

/** Live processes whose command line holds `marker` (a zombie nobody reaped yet counts as gone). */
function processesWith(marker: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return (
          readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

let library: TempLibrary;
let solo: SoloConnection;

const save = async (args: Record<string, unknown>) =>
  saveView(await callTool(solo.client, "save_function", { description: "test function", response_level: "full", ...args }));

beforeAll(async () => {
  library = tempLibrary();
  // The default test time limit (30 s): a passing test run is never cut short on a busy machine.
  // The endless loop below gets its own server with a short limit.
  solo = await connectSolo(library.dbPath);
});

afterAll(async () => {
  await solo?.close();
  library?.remove();
});

describe("the quality gate", () => {
  it("passes a clean function with passing tests: every step's result is in the answer and stored", async () => {
    const saved = await save({
      name: "slugify",
      code: SLUGIFY,
      description: "Make a URL slug from text",
      tags: ["text"],
      test_cases: [{ input: { text: "Hello World" }, expected: "hello-world" }, 'assert slugify("A  B") == "a-b"'],
    });
    expect(saved.status).toBe("active");
    expect(saved.rejection).toBeUndefined();
    expect(saved.critic).toBe("off");
    expect(step(saved, "lint").status).toBe("passed");
    expect(step(saved, "type").status).toBe("passed");
    const test = step(saved, "test");
    expect(test.outcome).toBe("passed");
    expect(test.cases?.map((c) => c.passed)).toEqual([true, true]);
    expect(test.environment?.dependencies).toEqual([]);
    expect(step(saved, "critic").status).toBe("skipped");
    // The stored metadata holds the same report.
    const fetched = await callTool(solo.client, "get_function", { name: "slugify", response_level: "full" });
    const report = (fetched.body as { gate_report: { status: string; steps: { step: string; status: string }[] } }).gate_report;
    expect(report.status).toBe("active");
    expect(report.steps.map((s) => `${s.step}:${s.status}`)).toEqual(["lint:passed", "type:passed", "test:passed", "critic:skipped"]);
  });

  it("rejects a syntax error at the lint step and runs nothing else", async () => {
    const saved = await save({
      name: "broken_syntax",
      code: "def broken_syntax(x:\n    return x\n",
      test_cases: [{ input: { x: 1 }, expected: 1 }],
    });
    expect(saved.status).toBe("broken");
    expect(saved.rejection?.kind).toBe("syntax_error");
    expect(step(saved, "lint").status).toBe("failed");
    expect(step(saved, "type").status).toBe("skipped");
    expect(step(saved, "test").outcome).toBe("skipped");
  });

  it("rejects an F-rule error (undefined name) with the diagnostic", async () => {
    const saved = await save({ name: "uses_undefined", code: "def uses_undefined(x: int) -> int:\n    return x + missing_name\n" });
    expect(saved.status).toBe("broken");
    expect(saved.rejection?.kind).toBe("lint_error");
    expect(saved.rejection?.details).toContain("F821");
    expect(step(saved, "lint").errors?.map((e) => e.code)).toContain("F821");
  });

  it("fixes W and I findings automatically and stores the fixed code", async () => {
    const code = "import sys\nimport os\n\n\ndef first_arg() -> str:\n    return os.path.basename(sys.argv[0])   \n";
    const saved = await save({ name: "first_arg", code, test_cases: ["assert isinstance(first_arg(), str)"] });
    expect(saved.status).toBe("active");
    expect(saved.code_changed).toBe(true);
    const fixedCodes = step(saved, "lint").fixed?.map((d) => d.code) ?? [];
    expect(fixedCodes).toEqual(expect.arrayContaining(["I001", "W291"]));
    const fetched = await callTool(solo.client, "get_function", { name: "first_arg" });
    const stored = (fetched.body as { code: string }).code;
    expect(stored).toBe("import os\nimport sys\n\n\ndef first_arg() -> str:\n    return os.path.basename(sys.argv[0])\n");
  });

  it("rejects a type error at the type step", async () => {
    const saved = await save({
      name: "add_text",
      code: 'def add_text(a: int) -> int:\n    return a + "x"\n',
      test_cases: [{ input: { a: 1 }, expected: 2 }],
    });
    expect(saved.status).toBe("broken");
    expect(saved.rejection?.kind).toBe("type_error");
    expect(step(saved, "type").errors?.length).toBeGreaterThan(0);
    expect(step(saved, "test").outcome).toBe("skipped");
  });

  it("rejects failing tests with the mismatch and the traceback", async () => {
    const code = 'def ratio(a: int, b: int) -> float:\n    """Divide a by b."""\n    return a // b\n';
    const saved = await save({
      name: "ratio",
      code,
      test_cases: [
        { input: { a: 1, b: 2 }, expected: 0.5 },
        { input: { a: 1, b: 0 }, expected: 0 },
      ],
    });
    expect(saved.status).toBe("broken");
    expect(saved.rejection?.kind).toBe("test_failed");
    const cases = step(saved, "test").cases ?? [];
    expect(cases[0]?.error).toBe("expected 0.5, got 0");
    expect(cases[1]?.error).toContain("ZeroDivisionError");
    expect(cases[1]?.error).toContain('File "function.py", line 3, in ratio');
    expect(saved.rejection?.details).toContain("expected 0.5, got 0");
  });

  it("kills an endless loop at the time limit, with the whole process group", async () => {
    // The child is found by a marker in its command line (inside the sandbox's PID namespace its
    // pid means nothing out here, and the sandbox cannot write files out here).
    const marker = `solo-gate-spin-${process.pid}-${Date.now()}`;
    const code = [
      "import subprocess",
      "import sys",
      "",
      "",
      "def spin(marker: str) -> int:",
      '    sleeper = [sys.executable, "-c", "import time; time.sleep(600)", marker]',
      "    subprocess.Popen(sleeper)",
      "    while True:",
      "        pass",
      "",
    ].join("\n");
    const limited = tempLibrary();
    const short = await connectSolo(limited.dbPath, { SOLO_TEST_TIMEOUT_MS: "2500" });
    const started = Date.now();
    let seen = 0;
    const watch = setInterval(() => (seen = Math.max(seen, processesWith(marker).length)), 50);
    const saved = await callTool(short.client, "save_function", {
      name: "spin",
      code,
      description: "test function",
      test_cases: [{ input: { marker }, expected: 0 }],
      response_level: "full",
    })
      .then(saveView)
      .finally(() => {
        clearInterval(watch);
        return short.close().finally(() => limited.remove());
      });
    const elapsed = Date.now() - started;
    expect(saved.status).toBe("broken");
    expect(saved.rejection?.kind).toBe("timeout");
    expect(step(saved, "test").outcome).toBe("timeout");
    expect(elapsed).toBeGreaterThanOrEqual(2500);
    expect(elapsed).toBeLessThan(20_000);
    expect(seen).toBeGreaterThan(0);
    await expect.poll(() => processesWith(marker), { timeout: 10_000 }).toEqual([]);
  });

  it("reports a dependency that cannot be installed as install_failed, quickly", async () => {
    const started = Date.now();
    const saved = await save({
      name: "needs_missing",
      code: "import solo_missing_pkg\n\n\ndef needs_missing() -> int:\n    return int(solo_missing_pkg.VALUE)\n",
      dependencies: ["solo-assets-no-such-package-4711"],
      test_cases: [{ input: {}, expected: 1 }],
    });
    const elapsed = Date.now() - started;
    expect(saved.status).toBe("broken");
    expect(saved.rejection?.kind).toBe("install_failed");
    expect(saved.rejection?.details).toMatch(/No matching distribution found for solo-assets-no-such-package-4711/);
    expect(elapsed).toBeLessThan(30_000);
  });

  it("installs a dependency into a pooled environment and reuses it on the next save", async () => {
    const code =
      'import six\n\n\ndef is_text(value: object) -> bool:\n    """True for str."""\n    return isinstance(value, six.string_types)\n';
    const cases = [
      { input: { value: "x" }, expected: true },
      { input: { value: 1 }, expected: false },
    ];
    const first = await save({ name: "is_text", code, dependencies: ["six"], test_cases: cases });
    expect(first.status).toBe("active");
    expect(step(first, "test").environment?.dependencies).toEqual(["six"]);
    const second = await save({ name: "is_text", code, dependencies: ["Six"], test_cases: cases });
    expect(second.status).toBe("active");
    expect(second.version).toBe(first.version + 1);
    expect(step(second, "test").environment).toMatchObject({ reused: true, hash: step(first, "test").environment?.hash });
  });

  it("runs tests without network: a socket to a listening local port fails", async () => {
    const sandbox = await solo.services.gateTools().then((t) => t.sandbox);
    if (!sandbox.networkIsolated) {
      console.log("skipped: no sandbox with network isolation on this machine");
      return;
    }
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const port = (server.address() as AddressInfo).port;
    try {
      const code =
        'import socket\n\n\ndef can_connect(port: int) -> bool:\n    with socket.create_connection(("127.0.0.1", port), timeout=5):\n        return True\n';
      const saved = await save({ name: "can_connect", code, test_cases: [{ input: { port }, expected: true }] });
      expect(saved.status).toBe("broken");
      expect(saved.rejection?.kind).toBe("test_failed");
      expect(step(saved, "test").sandbox?.network_isolated).toBe(true);
      expect(saved.rejection?.details).toMatch(/Network is unreachable|Errno 101|Connection refused|Errno 111/);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("keeps every save as a version, the rejected ones included", async () => {
    const history = await callTool(solo.client, "get_function_history", { name: "is_text" });
    const versions = (history.body as { versions: { version: number; status: string }[] }).versions;
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(existsSync(library.dbPath)).toBe(true);
  });
});

describe("the quality gate without a Python toolchain", () => {
  it("reports the test step as an error and stores the function unverified, not broken", async () => {
    const noPython = tempLibrary();
    const other = await connectSolo(noPython.dbPath, { SOLO_PYTHON: "/nonexistent/python3", SOLO_ENVS_DIR: join(noPython.dir, "envs") });
    try {
      const saved = saveView(
        await callTool(other.client, "save_function", {
          name: "slugify",
          code: SLUGIFY,
          description: "Make a URL slug from text",
          test_cases: [{ input: { text: "Hello World" }, expected: "hello-world" }],
          response_level: "full",
        }),
      );
      expect(saved.status).toBe("unverified");
      const test = step(saved, "test");
      expect(test.status).toBe("error");
      expect(test.summary).toMatch(/Python \(\/nonexistent\/python3\) could not be started/);
    } finally {
      await other.close();
      noPython.remove();
    }
  });
});
