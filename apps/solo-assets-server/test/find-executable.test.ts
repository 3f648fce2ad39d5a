/**
 * The gate runs Python, ruff and mypy past a version manager's shim (src/domain/process/find-executable.ts):
 * a shim on PATH (an executable in a folder named `shims`, as pyenv and asdf make them) for a tool
 * that the configured Python has in its scripts folder is never started, not even to probe it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectLinter } from "../src/domain/gate/lint/select-linter.js";
import { selectTyper } from "../src/domain/gate/typer/select-typer.js";
import { pastShim, pythonPaths } from "../src/domain/process/find-executable.js";
import type { PythonPaths } from "../src/domain/process/find-executable.js";

let root: string;
let shims: string;
let log: string;
let paths: PythonPaths | undefined;
let env: Record<string, string>;

/** A shim that records its call, then runs the real tool from the rest of PATH. */
function writeShim(name: string): void {
  const script = `#!/bin/sh\necho ${name} >> '${log}'\nPATH='${process.env.PATH ?? ""}' exec ${name} "$@"\n`;
  writeFileSync(join(shims, name), script, { mode: 0o755 });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "solo-shims-"));
  shims = join(root, "shims");
  log = join(root, "calls.log");
  mkdirSync(shims);
  for (const name of ["ruff", "mypy", "python3", "no-such-tool-here"]) writeShim(name);
  env = { PATH: `${shims}${delimiter}${process.env.PATH ?? ""}`, HOME: process.env.HOME ?? root };
  paths = await pythonPaths("python3", env);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const calls = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);
const inScripts = (name: string) => paths !== undefined && existsSync(join(paths.scripts, name));

describe("past a version manager's shim", () => {
  it("finds the interpreter the python3 shim runs, and its scripts folder", () => {
    expect(paths?.executable).toMatch(/^\//);
    expect(paths?.executable.startsWith(shims)).toBe(false);
    expect(paths?.scripts).toMatch(/^\//);
  });

  it("takes the scripts folder's program for a shim, keeps a shim whose tool is not there, and leaves other paths alone", async () => {
    expect(await pastShim(join(shims, "no-such-tool-here"), "python3", env)).toBe(join(shims, "no-such-tool-here"));
    expect(await pastShim("/usr/bin/env", "python3", env)).toBe("/usr/bin/env");
    if (inScripts("python3")) expect(await pastShim(join(shims, "python3"), "python3", env)).toBe(join(paths?.scripts ?? "", "python3"));
  });

  // Where the configured Python lacks the tool, the shim is what runs (as before), so each test
  // asserts whichever applies on this machine: on CI's pyenv Python, both tools are in its scripts folder.
  it("lints with ruff without starting its shim", async () => {
    const before = calls().length;
    const linter = await selectLinter("auto", env, 88, "python3");
    expect(linter.kind).toBe("ruff");
    const outcome = await linter.lint("import os\n\n\ndef f(x: int) -> int:\n    return x\n", new AbortController().signal);
    expect(JSON.stringify(outcome)).toContain("F401");
    expect(calls().slice(before)).toEqual(inScripts("ruff") ? [] : expect.arrayContaining(["ruff"]));
  });

  it("type-checks with mypy without starting its shim", async () => {
    const before = calls().length;
    const typer = await selectTyper("mypy", { python: "python3", cacheDir: join(root, "mypy-cache"), env });
    expect(typer.kind).toBe("mypy");
    expect(calls().slice(before)).toEqual(inScripts("mypy") ? [] : expect.arrayContaining(["mypy"]));
  });
});
