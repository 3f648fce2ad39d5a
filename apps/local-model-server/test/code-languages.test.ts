/**
 * local_analyze and local_extract on every language core's tree-sitter layer reads (issue 20
 * item 2): each answered exactly, with engine "deterministic" and no model configured; a file in
 * no supported language is INVALID_INPUT naming the supported ones, and engine "model" is the
 * only way to send it to a model. One server, one folder of small files written here.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

const FILES: Record<string, string> = {
  "py/billing.py": [
    "from __future__ import annotations",
    "import os.path",
    "from .rates import RATE",
    "",
    '__all__ = ["Invoice", "total"]',
    "",
    "class Invoice:",
    "    class Line:",
    "        pass",
    "",
    "    async def send(self, to, *rest, **meta):",
    "        import smtplib",
    "",
    "def total(items, rate=1):",
    "    return sum(items) * rate",
    "",
    "def helper():",
    "    pass",
    "",
  ].join("\n"),
  "go/shapes.go": [
    "package shapes",
    "",
    'import (\n\t"fmt"\n\tm "math"\n)',
    "",
    "type Circle struct{ R float64 }",
    "",
    "func (c Circle) Area() float64 { return m.Pi * c.R * c.R }",
    "",
    "func Describe(c Circle, label string) string { return fmt.Sprint(label, c) }",
    "",
    "func internal() {}",
    "",
  ].join("\n"),
  "rs/ledger.rs": [
    "use std::fmt::Display;",
    "pub use crate::money::{Amount, Currency};",
    "",
    "pub struct Ledger { entries: Vec<i64> }",
    "pub(crate) struct Hidden;",
    "",
    "impl Ledger {",
    "    pub fn post(&mut self, amount: i64) {}",
    "}",
    "",
    "pub async fn open(path: &str) -> Ledger { todo!() }",
    "fn private() {}",
    "",
  ].join("\n"),
  "java/InventoryService.java": [
    "package shop;",
    "",
    "import java.util.List;",
    "import static java.util.Objects.requireNonNull;",
    "",
    "public class InventoryService {",
    "    public List<String> names(int limit) { return List.of(); }",
    "    static class Cache {}",
    "}",
    "",
    "class Helper {}",
    "",
  ].join("\n"),
  "cs/Catalog.cs": [
    "using System.Collections.Generic;",
    "",
    "namespace Shop;",
    "",
    "public class Catalog",
    "{",
    "    public async Task Load(string path, int count) { }",
    "}",
    "",
    "internal class Index { }",
    "",
  ].join("\n"),
  "rb/report.rb": "require 'json'\n\ndef report(x)\n  x\nend\n",
};

type Extracted = { results: Record<string, { found: boolean; data: unknown; line_numbers?: (number | null)[]; details?: unknown }> };
type Analysis = { analysis: Record<string, Record<string, unknown>>; types?: string[] };

let server: Connected;
let state: Awaited<ReturnType<typeof tempDir>>;
let root: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  state = await tempDir();
  root = await tempDir("local-model-code-");
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(root.path, path, ".."), { recursive: true });
    writeFileSync(join(root.path, path), text);
  }
  server = await connect(configFor({ LOCAL_MODEL_ROOTS: root.path, LOCAL_MODEL_STATE_DIR: state.path }));
});
afterAll(async () => {
  await server.close();
  await state.remove();
  await root.remove();
});

const CODE = ["py/billing.py", "go/shapes.go", "rs/ledger.rs", "java/InventoryService.java", "cs/Catalog.cs"];

async function analyze(task_type: string, files: string[], extra: Record<string, unknown> = {}) {
  const { isError, body } = await server.call("local_analyze", { task_type, files, ...extra });
  expect(isError).toBe(false);
  expect(body).toMatchObject({ success: true, engine: "deterministic", tokens_used: 0 });
  return dataOf<Analysis>(body);
}

describe("local_analyze answers every tree-sitter language exactly, without a model", () => {
  it("exports: __all__, capitalised Go names, pub items (not pub(crate)), public top-level Java and C# types", async () => {
    expect((await analyze("exports", CODE)).analysis).toEqual({
      "py/billing.py": { exports: ["Invoice", "total"] },
      "go/shapes.go": { exports: ["Circle", "Describe"] },
      "rs/ledger.rs": { exports: ["Amount", "Currency", "Ledger", "open"] },
      "java/InventoryService.java": { exports: ["InventoryService"] },
      "cs/Catalog.cs": { exports: ["Catalog"] },
    });
    // standard: the line of each name the file declares itself (Rust's re-exported names have none).
    const standard = await analyze("exports", ["rs/ledger.rs", "py/billing.py"], { response_level: "standard" });
    expect(standard.analysis["rs/ledger.rs"]).toMatchObject({ lines: { exports: { Ledger: 4, open: 11 } } });
    expect(standard.analysis["py/billing.py"]).toMatchObject({ lines: { exports: { Invoice: 7, total: 14 } } });
  });

  it("dependencies: the modules as imported, full paths, anywhere in the file", async () => {
    expect((await analyze("dependencies", CODE)).analysis).toEqual({
      "py/billing.py": { dependencies: { modules: ["__future__", "os.path", ".rates", "smtplib"] } },
      "go/shapes.go": { dependencies: { modules: ["fmt", "math"] } },
      "rs/ledger.rs": { dependencies: { modules: ["std::fmt::Display", "crate::money::Amount", "crate::money::Currency"] } },
      "java/InventoryService.java": { dependencies: { modules: ["java.util.List", "java.util.Objects.requireNonNull"] } },
      "cs/Catalog.cs": { dependencies: { modules: ["System.Collections.Generic"] } },
    });
  });

  it("functions: methods named with their container, parameters and lines at standard", async () => {
    const data = await analyze("functions", CODE, { response_level: "standard" });
    expect(data.analysis["py/billing.py"]?.functions).toEqual([
      { name: "Invoice.send", line: 11, params: ["self", "to", "*rest", "**meta"] },
      { name: "total", line: 14, params: ["items", "rate"] },
      { name: "helper", line: 17, params: [] },
    ]);
    expect(data.analysis["go/shapes.go"]?.functions).toEqual([
      // A Go method's receiver is not a parameter.
      { name: "Circle.Area", line: 10, params: [] },
      { name: "Describe", line: 12, params: ["c", "label"] },
      { name: "internal", line: 14, params: [] },
    ]);
    expect(data.analysis["rs/ledger.rs"]?.functions).toEqual([
      { name: "Ledger.post", line: 8, params: ["self", "amount"] },
      { name: "open", line: 11, params: ["path"] },
      { name: "private", line: 12, params: [] },
    ]);
    expect(data.analysis["java/InventoryService.java"]?.functions).toEqual([
      { name: "InventoryService.names", line: 7, params: ["limit"] },
    ]);
    expect(data.analysis["cs/Catalog.cs"]?.functions).toEqual([{ name: "Catalog.Load", line: 7, params: ["path", "count"] }]);
  });

  it("types: classes, structs and nested types (minimal: the names; standard: kind and line)", async () => {
    expect((await analyze("types", CODE)).types).toEqual([
      "Invoice",
      "Invoice.Line",
      "Circle",
      "Ledger",
      "Hidden",
      "InventoryService",
      "InventoryService.Cache",
      "Helper",
      "Catalog",
      "Index",
    ]);
    const standard = await analyze("types", ["rs/ledger.rs"], { response_level: "standard" });
    expect(standard.analysis["rs/ledger.rs"]?.types).toEqual([
      { name: "Ledger", kind: "struct", line: 4 },
      { name: "Hidden", kind: "struct", line: 5 },
    ]);
  });

  it("refuses a file in no supported language, naming the supported ones; engine model is the only way to the model", async () => {
    const { isError, body } = await server.call("local_analyze", { task_type: "exports", files: ["rb/report.rb", "py/billing.py"] });
    expect(isError).toBe(true);
    const error = errorOf(body);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("rb/report.rb");
    expect(error.message).toContain("python, javascript, typescript, tsx, go, rust, java, csharp");
    expect(error.suggestion).toContain('engine "model"');
    const forced = await server.call("local_analyze", { task_type: "exports", files: ["rb/report.rb"], engine: "model" });
    expect(errorOf(forced.body).code).toBe("NOT_READY");
  });
});

describe("local_extract answers every tree-sitter language exactly, without a model", () => {
  it("exports and imports per file, with the line of each declared export", async () => {
    const exports = await server.call("local_extract", { task_type: "exports", files: ["py/billing.py", "go/shapes.go"] });
    expect(exports.body).toMatchObject({ success: true, engine: "deterministic" });
    expect(dataOf<Extracted>(exports.body).results).toEqual({
      "py/billing.py": { found: true, data: ["Invoice", "total"], line_numbers: [7, 14] },
      "go/shapes.go": { found: true, data: ["Circle", "Describe"], line_numbers: [8, 12] },
    });
    const imports = await server.call("local_extract", {
      task_type: "imports",
      files: ["rs/ledger.rs", "java/InventoryService.java", "cs/Catalog.cs"],
      extract: { format: "list" },
    });
    expect(dataOf<Extracted>(imports.body).results).toEqual({
      "rs/ledger.rs": {
        found: true,
        data: ["std::fmt::Display", "crate::money::Amount", "crate::money::Currency"],
        line_numbers: [1, 2, 2],
      },
      "java/InventoryService.java": { found: true, data: ["java.util.List", "java.util.Objects.requireNonNull"], line_numbers: [3, 4] },
      "cs/Catalog.cs": { found: true, data: ["System.Collections.Generic"], line_numbers: [1] },
    });
  });

  it("imports in format json: each module with the names taken from it, and each import's line in details", async () => {
    const { body } = await server.call("local_extract", {
      task_type: "imports",
      files: ["py/billing.py", "rs/ledger.rs", "java/InventoryService.java", "go/shapes.go", "cs/Catalog.cs"],
      response_level: "full",
    });
    const results = dataOf<Extracted>(body).results;
    const answer = (file: string) => ({ data: results[file]?.data, line_numbers: results[file]?.line_numbers });
    expect(answer("py/billing.py")).toEqual({
      data: { __future__: ["annotations"], "os.path": [], ".rates": ["RATE"], smtplib: [] },
      line_numbers: [1, 2, 3, 12],
    });
    expect(answer("rs/ledger.rs")).toEqual({
      data: { "std::fmt": ["Display"], "crate::money": ["Amount", "Currency"] },
      line_numbers: [1, 2],
    });
    expect(answer("java/InventoryService.java")).toEqual({
      data: { "java.util": ["List"], "java.util.Objects": ["requireNonNull"] },
      line_numbers: [3, 4],
    });
    // A Go package import takes no names: m "math" binds the package to m.
    expect(answer("go/shapes.go")).toEqual({ data: { fmt: [], math: [] }, line_numbers: [4, 5] });
    expect(answer("cs/Catalog.cs")).toEqual({ data: { "System.Collections.Generic": [] }, line_numbers: [1] });
    expect(results["go/shapes.go"]?.details).toMatchObject({
      analyzer: "tree-sitter",
      imports: [
        { from: "fmt", items: [], line: 4 },
        { from: "math", items: [], alias: "m", line: 5 },
      ],
    });
    expect(results["java/InventoryService.java"]?.details).toMatchObject({
      imports: [
        { from: "java.util", items: ["List"], line: 3 },
        { from: "java.util.Objects", items: ["requireNonNull"], static: true, line: 4 },
      ],
    });
  });

  it("structure: types and functions in source order, members one level down", async () => {
    const { body } = await server.call("local_extract", { task_type: "structure", files: ["py/billing.py"], extract: { format: "list" } });
    expect(dataOf<Extracted>(body).results["py/billing.py"]).toEqual({
      found: true,
      data: ["class Invoice", "  class Line", "  method send", "function total", "function helper"],
      line_numbers: [7, 8, 11, 14, 17],
    });
  });

  it("structure in full: each section's end line, the line of its last character", async () => {
    const { body } = await server.call("local_extract", {
      task_type: "structure",
      files: ["py/billing.py", "rs/ledger.rs"],
      response_level: "full",
    });
    const sections = (file: string) => (dataOf<Extracted>(body).results[file]?.details as { sections: unknown[] }).sections;
    expect(sections("py/billing.py")).toEqual([
      { name: "Invoice", kind: "class", level: 1, line: 7, end_line: 12 },
      { name: "Invoice.Line", kind: "class", level: 2, line: 8, end_line: 9 },
      { name: "Invoice.send", kind: "method", level: 2, line: 11, end_line: 12 },
      { name: "total", kind: "function", level: 1, line: 14, end_line: 15 },
      { name: "helper", kind: "function", level: 1, line: 17, end_line: 18 },
    ]);
    expect(sections("rs/ledger.rs")).toEqual([
      { name: "Ledger", kind: "struct", level: 1, line: 4, end_line: 4 },
      { name: "Hidden", kind: "struct", level: 1, line: 5, end_line: 5 },
      { name: "Ledger.post", kind: "method", level: 2, line: 8, end_line: 8 },
      { name: "open", kind: "function", level: 1, line: 11, end_line: 11 },
      { name: "private", kind: "function", level: 1, line: 12, end_line: 12 },
    ]);
  });

  it("refuses exports of an unsupported language without engine model", async () => {
    const { body } = await server.call("local_extract", { task_type: "imports", files: ["rb/report.rb"] });
    expect(errorOf(body)).toMatchObject({ code: "INVALID_INPUT" });
    expect(errorOf(body).details).toMatchObject({ unsupported: ["rb/report.rb"] });
  });
});
