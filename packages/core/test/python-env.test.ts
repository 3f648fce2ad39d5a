import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isToolError } from "../src/errors.js";
import { ensurePythonEnv, findPython, userCacheDir } from "../src/python-env/python-env.js";

const work = mkdtempSync(join(tmpdir(), "python-env-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const env = { ...process.env, XDG_CACHE_HOME: join(work, "cache") };

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string; suggestion?: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isToolError(error)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return { code: error.code, message: error.message, ...(error.suggestion ? { suggestion: error.suggestion } : {}) };
}

describe("python-env", () => {
  it("a missing Python is NOT_READY naming what to install; PYTHON overrides python3", async () => {
    const missing = await codeOf(findPython({ env: { ...env, PYTHON: "/nonexistent/python3" } }));
    expect(missing.code).toBe("NOT_READY");
    expect(missing.message).toContain("/nonexistent/python3");
    expect(missing.suggestion).toMatch(/Install Python 3/);
    const found = await findPython({ env });
    expect(found.version).toMatch(/^3\.\d+$/);
  });

  it("a Python older than asked for is NOT_READY", async () => {
    const old = await codeOf(findPython({ env, minVersion: [99, 0] }));
    expect(old.code).toBe("NOT_READY");
    expect(old.message).toMatch(/too old: 99\.0 or newer/);
  });

  it("makes the environment once under the cache dir, reuses it, and never reuses a half-made one", { timeout: 120_000 }, async () => {
    const requirements = join(work, "requirements.txt");
    // Nothing to download: a requirement the system's site-packages already meet (pip itself).
    writeFileSync(requirements, "pip\n");
    const lines: string[] = [];
    const made = await ensurePythonEnv({ requirementsFile: requirements, env, installer: "pip", progress: (l) => lines.push(l) });
    expect(made.reused).toBe(false);
    expect(made.dir.startsWith(join(userCacheDir(env), "local-mcp", "python-envs"))).toBe(true);
    expect(existsSync(made.python)).toBe(true);
    expect(lines.some((l) => l.startsWith("making a Python"))).toBe(true);
    expect(JSON.parse(readFileSync(join(made.dir, ".local-mcp-env.json"), "utf8")).installer).toBe("pip");
    const again = await ensurePythonEnv({ requirementsFile: requirements, env, installer: "pip" });
    expect(again).toMatchObject({ reused: true, dir: made.dir, hash: made.hash });

    // An interrupted build (no marker) in its place is rebuilt, not reused.
    rmSync(join(made.dir, ".local-mcp-env.json"));
    const rebuilt = await ensurePythonEnv({ requirementsFile: requirements, env, installer: "pip" });
    expect(rebuilt).toMatchObject({ reused: false, dir: made.dir });
    expect(existsSync(join(rebuilt.dir, ".local-mcp-env.json"))).toBe(true);
    // No staging folder is left behind.
    expect(readdirSync(join(userCacheDir(env), "local-mcp", "python-envs")).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("an install that fails is UPSTREAM_ERROR with pip's last lines, and leaves nothing to reuse", { timeout: 120_000 }, async () => {
    const requirements = join(work, "bad-requirements.txt");
    writeFileSync(requirements, "this is not a requirement ===\n");
    const failed = await codeOf(ensurePythonEnv({ requirementsFile: requirements, env, installer: "pip" }));
    expect(failed.code).toBe("UPSTREAM_ERROR");
    expect(failed.message).toMatch(/pip install failed \(exit \d+\): .*requirement/i);
    const envs = join(userCacheDir(env), "local-mcp", "python-envs");
    mkdirSync(envs, { recursive: true });
    const marked = readdirSync(envs).filter((n) => existsSync(join(envs, n, ".local-mcp-env.json")));
    expect(marked).toHaveLength(1);
    expect(readdirSync(envs).filter((n) => n.startsWith("."))).toEqual([]);
  });
});
