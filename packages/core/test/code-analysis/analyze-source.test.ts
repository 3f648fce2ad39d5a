/**
 * The code-analysis layer's contract around the answers: which languages it knows and how a file
 * names one, the coded error for the rest, grammars loaded only when asked for, and hostile input
 * (a 2 MB file, deep nesting, invalid syntax, a deadline, an oversized text): partial answers or
 * a coded error, never a crash or a hang.
 */
import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/errors.js";
import {
  type AnalyzeSourceInput,
  type CodeLanguage,
  type FunctionFacts,
  type TypeFacts,
  MAX_SOURCE_CHARS,
  analyzeSource,
  analyzeSourceWith,
  languageOf,
  loadedGrammars,
  resolveLanguage,
  supportedLanguages,
} from "../../src/code-analysis/index.js";

async function codeOf(input: AnalyzeSourceInput): Promise<string> {
  try {
    await analyzeSource(input);
    return "answered";
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return error.code;
  }
}

describe("languages", () => {
  it("loads no grammar before one is asked for, then only that one", async () => {
    expect(loadedGrammars()).toEqual([]);
    await analyzeSource({ language: "go", text: "package main\n" });
    await analyzeSource({ path: "b.go", text: "package b\n" });
    expect(loadedGrammars()).toEqual(["go"]);
  });

  it("supports Python, JavaScript, TypeScript, TSX, Go, Rust, Java and C#", () => {
    const expected: CodeLanguage[] = ["python", "javascript", "typescript", "tsx", "go", "rust", "java", "csharp"];
    expect(supportedLanguages()).toEqual(expected);
  });

  it("names a file's language from its extension", () => {
    const cases: Record<string, CodeLanguage | undefined> = {
      "pkg/mod.py": "python",
      "stubs/mod.pyi": "python",
      "web/app.mjs": "javascript",
      "web/App.jsx": "javascript",
      "src/index.ts": "typescript",
      "types/global.d.ts": "typescript",
      "src/View.TSX": "tsx",
      "cmd/main.go": "go",
      "src/lib.rs": "rust",
      "src/Main.java": "java",
      "Program.cs": "csharp",
      "C:\\repo\\tool.py": "python",
      Makefile: undefined,
      "notes.txt": undefined,
      ".py": undefined,
    };
    expect(Object.fromEntries(Object.keys(cases).map((path) => [path, languageOf(path)]))).toEqual(cases);
  });

  it("refuses an unsupported language with INVALID_INPUT naming the supported ones", async () => {
    for (const input of [{ language: "cobol" }, { path: "notes.txt" }, {}]) {
      let caught: unknown;
      try {
        resolveLanguage(input);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ToolError);
      const error = caught as ToolError;
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toContain("python, javascript, typescript, tsx, go, rust, java, csharp");
      expect(error.details).toEqual({ supported: supportedLanguages() });
    }
    expect(await codeOf({ language: "cobol", text: "IDENTIFICATION DIVISION." })).toBe("INVALID_INPUT");
    expect(resolveLanguage({ language: "Python", path: "x.rs" })).toBe("python");
  });
});

describe("the definitions' edge cases", () => {
  it("Python: an __all__ built by code gives way to the public top-level names", async () => {
    const text = "import os\n__all__ = [name for name in dir() if name.isupper()]\nLIMIT = 3\n_private = 1\ndef run(): pass\n";
    expect((await analyzeSource({ path: "m.py", text })).exports).toEqual(["LIMIT", "run"]);
    const literal = "__all__ = ('run',) + ('LIMIT',)\nLIMIT = 3\ndef run(): pass\n";
    expect((await analyzeSource({ path: "m.py", text: literal })).exports).toEqual(["run", "LIMIT"]);
  });

  it("TypeScript: `export =` is the default export, and its local is exported", async () => {
    const text = 'import fs = require("node:fs");\nfunction main(path: string) { return fs.readFileSync(path); }\nexport = main;\n';
    const result = await analyzeSource({ path: "legacy.cts", text });
    expect(result.exports).toEqual(["default"]);
    expect(result.imports).toEqual(["node:fs"]);
    expect(result.functions).toEqual([{ name: "main", params: ["path"], async: false, exported: true, line: 2, endLine: 2 }]);
  });

  it("reads names and lines right past non-ASCII text and CRLF line ends", async () => {
    const text = ['# Größe 🚀 "漢字"', "名前 = 1", "def grüßen(wer='🌍'):", "    pass", "class Ünit: pass", ""].join("\r\n");
    const result = await analyzeSource({ path: "unicode.py", text });
    expect(result.exports).toEqual(["名前", "grüßen", "Ünit"]);
    expect(result.functions).toEqual([{ name: "grüßen", params: ["wer"], async: false, exported: true, line: 3, endLine: 4 }]);
    expect(result.types).toEqual([{ name: "Ünit", kind: "class", exported: true, line: 5, endLine: 5 }]);
    const go = await analyzeSource({ path: "u.go", text: "package u\r\n// ü\r\nfunc Ärger() {}\r\nfunc ärger() {}\r\n" });
    expect(go.exports).toEqual(["Ärger"]);
  });
});

describe("hostile input", () => {
  it("reads a 2 MB Python file whole, in a bounded time", async () => {
    const unit = (i: number) =>
      `class Service${i}(Base):\n    """Serves ${i}."""\n\n    async def handle_${i}(self, request, *args, **kw):\n        return await self.next(request, ${"x".repeat(20)}=${i})\n\n\ndef helper_${i}(a, b=${i}):\n    import json\n    return json.dumps([a, b])\n\n\n`;
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 2_000_000; i++) {
      parts.push(unit(i));
      size += parts[i]!.length;
    }
    const text = parts.join("");
    const started = performance.now();
    const result = await analyzeSource({ path: "big.py", text });
    const elapsed = performance.now() - started;
    expect(result.types).toHaveLength(parts.length);
    expect(result.functions).toHaveLength(2 * parts.length);
    expect(result.exports).toHaveLength(2 * parts.length);
    expect(result.imports).toEqual(["json"]);
    expect(result.syntaxErrors).toEqual([]);
    // Generous: about 1 s here on a loaded 2-core machine.
    expect(elapsed).toBeLessThan(30_000);
  });

  it("survives deep nesting: 400 nested Java classes and 20,000 nested JavaScript arrays", async () => {
    const depth = 400;
    const java = `${Array.from({ length: depth }, (_, i) => `class C${i} {`).join("\n")}\nvoid deepest() {}\n${"}\n".repeat(depth)}`;
    const nested = await analyzeSource({ path: "Deep.java", text: java });
    expect(nested.types).toHaveLength(depth);
    expect(nested.types[depth - 1]).toEqual({
      name: `C${depth - 1}`,
      kind: "class",
      container: Array.from({ length: depth - 1 }, (_, i) => `C${i}`).join("."),
      exported: false,
      line: depth,
      // The innermost class closes on the first `}` line, after its method's line.
      endLine: depth + 2,
    } satisfies TypeFacts);
    expect(nested.functions.map((f) => f.name)).toEqual(["deepest"]);

    const arrays = `export const deep = ${"[".repeat(20_000)}1${"]".repeat(20_000)};\nexport function after(x) {}\n`;
    const result = await analyzeSource({ path: "deep.js", text: arrays });
    expect(result.exports).toEqual(["deep", "after"]);
    expect(result.syntaxErrors).toEqual([]);
  });

  it("follows nested patterns and use lists 200 levels deep and leaves deeper ones out, without overflowing the stack", async () => {
    const path = (depth: number) => Array.from({ length: depth }, (_, i) => `m${i}`).join("::");
    const useList = (depth: number) => `pub use ${Array.from({ length: depth }, (_, i) => `m${i}::{`).join("")}Z${"}".repeat(depth)};\n`;
    const shallow = await analyzeSource({ path: "lib.rs", text: useList(150) });
    expect(shallow.imports).toEqual([`${path(150)}::Z`]);
    expect(shallow.exports).toEqual(["Z"]);
    const deep = 20_000;
    const rust = await analyzeSource({ path: "lib.rs", text: `${useList(deep)}pub fn after() {}\n` });
    expect([rust.exports, rust.imports, rust.syntaxErrors]).toEqual([["after"], [], []]);
    const js = await analyzeSource({
      path: "deep.js",
      text: `export const ${"[".repeat(deep)}z${"]".repeat(deep)} = x;\nexport function after() {}\n`,
    });
    expect(js.exports).toEqual(["after"]);
    const python = `${"(".repeat(deep)}z${",)".repeat(deep)} = 1\n__all__ = ${"[".repeat(deep)}"z"${"]".repeat(deep)}\ndef run(): pass\n`;
    expect((await analyzeSource({ path: "deep.py", text: python })).exports).toEqual(["run"]);
  });

  it("answers from the rest of a file with invalid syntax and names the broken lines", async () => {
    const text = [
      "import os", // 1
      "", // 2
      "def before(a):", // 3
      "    return a", // 4
      "", // 5
      "def broken(:", // 6
      "    pass", // 7
      "", // 8
      "class After:", // 9
      "    def method(self, b):", // 10
      "        return b", // 11
      "", // 12
      "from pathlib import Path", // 13
    ].join("\n");
    const result = await analyzeSource({ path: "broken.py", text });
    expect(result.imports).toEqual(["os", "pathlib"]);
    expect(result.functions.filter((f) => f.name !== "broken")).toEqual([
      { name: "before", params: ["a"], async: false, exported: true, line: 3, endLine: 4 },
      { name: "method", container: "After", params: ["self", "b"], async: false, exported: false, line: 10, endLine: 11 },
    ] satisfies FunctionFacts[]);
    expect(result.types).toEqual([{ name: "After", kind: "class", exported: true, line: 9, endLine: 11 }]);
    expect(result.syntaxErrors).toEqual([6]);

    const garbage = await analyzeSource({ path: "noise.ts", text: "}}}{{{ export ))) function ((( import from from ;;; <<<>>>" });
    expect(garbage.syntaxErrors.length).toBeGreaterThan(0);
    expect(garbage.functions).toEqual([]);
  });

  it("stops at its deadline with TIMEOUT, and the next call parses from the start", async () => {
    const text = "def f(x):\n    return [x, {'k': (x, x)}]\n".repeat(50_000);
    expect(await codeOf({ path: "slow.py", text, timeoutMs: 0 })).toBe("TIMEOUT");
    const result = await analyzeSource({ path: "small.py", text: "def g(y):\n    return y\n" });
    expect(result.functions).toEqual([{ name: "g", params: ["y"], async: false, exported: true, line: 1, endLine: 2 }]);
    expect(result.syntaxErrors).toEqual([]);
  });

  it("stops when its signal is aborted, and refuses a text above MAX_SOURCE_CHARS", async () => {
    const controller = new AbortController();
    controller.abort(new Error("caller left"));
    await expect(analyzeSource({ path: "a.py", text: "x = 1\n", signal: controller.signal })).rejects.toThrow("caller left");
    expect(await codeOf({ path: "huge.js", text: " ".repeat(MAX_SOURCE_CHARS + 1) })).toBe("RESOURCE_EXHAUSTED");
  });
});

describe("analyzeSourceWith (one parse for the layer's answers and a caller's own reading)", () => {
  it("gives the reader the tree and the answers, and returns both", async () => {
    const text = '__all__ = ["run"]\n\ndef run():\n    pass\n\ndef helper():\n    pass\n';
    const result = await analyzeSourceWith({ path: "tool.py", text }, (root, analysis) => ({
      root: root.type,
      statements: root.namedChildren.length,
      exports: analysis.exports,
    }));
    expect(result.read).toEqual({ root: "module", statements: 3, exports: ["run"] });
    expect(result.analysis).toEqual(await analyzeSource({ path: "tool.py", text }));
  });

  it("turns a reader's stack overflow into RESOURCE_EXHAUSTED", async () => {
    const overflow = (): number => overflow() + 1;
    const error = await analyzeSourceWith({ path: "a.go", text: "package a\n" }, () => overflow()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("RESOURCE_EXHAUSTED");
  });
});
