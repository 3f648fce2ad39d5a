/**
 * Both implementations of the lint and type steps: the installed binaries (ruff, mypy — run when
 * present, as in CI) and the npm fallbacks (ruff compiled to WebAssembly with our fix applier,
 * pyright), judged on the same code.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSoloAssetsConfig } from "../src/config.js";
import type { Linter } from "../src/domain/gate/lint/linter.js";
import { RuffWasmLinter } from "../src/domain/gate/lint/ruff-wasm-linter.js";
import { selectLinter } from "../src/domain/gate/lint/select-linter.js";
import { PyrightTyper } from "../src/domain/gate/typer/pyright-typer.js";
import { selectTyper } from "../src/domain/gate/typer/select-typer.js";
import type { Typer } from "../src/domain/gate/typer/typer.js";
import { saveView, step } from "./helpers/gate-views.js";
import { callTool, connectSolo, tempLibrary, testEnv } from "./helpers/test-library.js";

const config = loadSoloAssetsConfig(testEnv("/unused.duckdb"), process.cwd());
const signal = new AbortController().signal;

const MESSY = "import sys\nimport os\n\n\ndef first_arg() -> str:   \n    return os.path.basename(sys.argv[0])  ";
const MESSY_FIXED = "import os\nimport sys\n\n\ndef first_arg() -> str:\n    return os.path.basename(sys.argv[0])\n";

async function typeErrors(typer: Typer, code: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "solo-typer-test-"));
  try {
    writeFileSync(join(dir, "function.py"), code);
    return (await typer.check(dir, signal)).errors.map((e) => `${e.line}:${e.code}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const linters: { name: string; make: () => Promise<Linter | undefined> }[] = [
  { name: "ruff-wasm (fallback)", make: async () => new RuffWasmLinter() },
  {
    name: "ruff binary",
    make: async () => {
      const linter = await selectLinter("auto", config.toolEnv);
      return linter.kind === "ruff" ? linter : undefined;
    },
  },
];

describe.each(linters)("lint step with $name", ({ make }) => {
  let linter: Linter | undefined;
  beforeAll(async () => {
    linter = await make();
    if (!linter) console.log("skipped: the ruff binary is not installed (pip install ruff)");
  });

  it("fixes W and I findings and reports what it fixed", async () => {
    if (!linter) return;
    const found = await linter.lint(MESSY, signal);
    expect(found.fixedCode).toBe(MESSY_FIXED);
    expect(found.errors).toEqual([]);
    expect(found.fixed.map((d) => d.code).sort()).toEqual(["I001", "W291", "W291", "W292"]);
  });

  it("reports E and F findings as errors, and syntax errors as such", async () => {
    if (!linter) return;
    const found = await linter.lint("import os\n\n\ndef f(l: int) -> int:\n    return l + y\n", signal);
    expect(found.errors.map((d) => d.code).sort()).toEqual(["E741", "F401", "F821"]);
    const syntax = await linter.lint("def f(:\n    pass\n", signal);
    expect(syntax.syntaxError).toBe(true);
    expect(syntax.errors[0]?.code).toBe("invalid-syntax");
  });
});

describe("type step", () => {
  const bad = 'def add_text(a: int) -> int:\n    return a + "x"\n';
  const good = "import numpy_is_not_installed_here\n\n\ndef double(a: int) -> int:\n    return a * 2\n";

  it("pyright (fallback) finds a type error and ignores missing imports", async () => {
    const pyright = new PyrightTyper(config.toolEnv);
    expect(await typeErrors(pyright, bad)).toEqual(["2:reportOperatorIssue"]);
    expect(await typeErrors(pyright, good)).toEqual([]);
  });

  it("mypy (when installed) finds the same error and ignores missing imports", async () => {
    const typer = await selectTyper("auto", {
      python: config.python,
      cacheDir: join(tmpdir(), "solo-test-mypy-cache"),
      env: config.toolEnv,
    });
    if (typer.kind !== "mypy") {
      console.log("skipped: mypy is not installed (pip install mypy)");
      return;
    }
    expect(await typeErrors(typer, bad)).toEqual(["2:operator"]);
    expect(await typeErrors(typer, good)).toEqual([]);
  });
});

describe("the gate on the fallbacks, chosen by configuration", () => {
  const library = tempLibrary();
  afterAll(() => library.remove());

  it("SOLO_LINTER=ruff-wasm and SOLO_TYPER=pyright run a save end to end", async () => {
    const solo = await connectSolo(library.dbPath, { SOLO_LINTER: "ruff-wasm", SOLO_TYPER: "pyright" });
    try {
      const saved = saveView(
        await callTool(solo.client, "save_function", {
          name: "first_arg",
          code: MESSY,
          description: "The program's name",
          test_cases: ["assert isinstance(first_arg(), str)"],
          response_level: "full",
        }),
      );
      expect(saved.status).toBe("active");
      expect(saved.code).toBe(MESSY_FIXED);
      expect(step(saved, "lint").tool).toMatch(/^ruff-wasm /);
      expect(step(saved, "type").tool).toMatch(/^pyright /);
    } finally {
      await solo.close();
    }
  });
});
