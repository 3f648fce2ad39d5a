import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeFile } from "../src/domain/analysis/analyze-file.js";
import { maskCode } from "../src/domain/analysis/code-masking.js";
import type { FileFacts } from "../src/domain/analysis/source-facts.js";
import { identifierWords, namingStyle, slug } from "../src/domain/analysis/naming-style.js";
import { IgnoreRules, isIgnored } from "../src/domain/files/ignore-rules.js";
import { FIXTURE_REPO } from "./helpers/sample-repo.js";

describe("naming styles", () => {
  it.each([
    ["createServer", "camelCase"],
    ["parseHTTPResponse", "camelCase"],
    ["ToolError", "PascalCase"],
    ["MAX_RETRIES", "UPPER_SNAKE_CASE"],
    ["load_rows", "snake_case"],
    ["tool-definition", "kebab-case"],
    ["run", "lowercase"],
    ["URL", "UPPERCASE"],
    ["_privateThing", "camelCase"],
    ["Bad_Mixed", "other"],
  ])("%s is %s", (name, style) => expect(namingStyle(name)).toBe(style));

  it("splits identifiers into words and slugs", () => {
    expect(identifierWords("parseHTTPResponse_v2")).toEqual(["parse", "http", "response", "v2"]);
    expect(slug("src/errors.ts")).toBe("src-errors-ts");
    expect(slug("createOrderService.placeOrder")).toBe("create-order-service-place-order");
  });
});

describe(".gitignore rules", () => {
  const rules = IgnoreRules.parse(
    ["# comment", "*.log", "build/", "/root-only.ts", "docs/**/draft-*.md", "!keep.log", "a/**/z.ts"].join("\n"),
  );
  it.each([
    ["debug.log", false, true],
    ["deep/dir/debug.log", false, true],
    ["keep.log", false, false],
    ["build", true, true],
    ["build", false, false],
    ["src/build", true, true],
    ["root-only.ts", false, true],
    ["src/root-only.ts", false, false],
    ["docs/a/b/draft-1.md", false, true],
    ["docs/draft-1.md", false, true],
    ["a/z.ts", false, true],
    ["a/b/c/z.ts", false, true],
    ["src/index.ts", false, false],
  ])("%s (directory: %s) ignored: %s", (path, directory, ignored) => expect(isIgnored([rules], path, directory)).toBe(ignored));

  it("a nested .gitignore applies below its directory only", () => {
    const nested = IgnoreRules.parse("*.ts\n", "pkg");
    expect(isIgnored([rules, nested], "pkg/a.ts", false)).toBe(true);
    expect(isIgnored([rules, nested], "other/a.ts", false)).toBe(false);
  });
});

describe("code masking", () => {
  it("blanks comments and string contents, keeping length, lines and delimiters", () => {
    const text = 'x = "def f(): pass"  # class Y:\ny = """\nclass Z:\n"""\n';
    const masked = maskCode(text, { lineComments: ["#"], multilineQuotes: ['"""'], quotes: ['"'], shortCharQuote: false });
    expect(masked.length).toBe(text.length);
    expect(masked.split("\n").length).toBe(text.split("\n").length);
    expect(masked).not.toMatch(/def|class/);
    expect(masked).toContain('"""');
  });
});

describe("Python on the fixture (tree-sitter)", () => {
  const path = "scripts/report.py";
  let facts: FileFacts;
  beforeAll(async () => {
    facts = await analyzeFile(path, readFileSync(join(FIXTURE_REPO, path), "utf8"), "python");
  });

  it("reads declarations with their kinds", () => {
    const of = (kind: string) => facts.declarations.filter((d) => d.kind === kind).map((d) => d.name);
    expect(of("class")).toEqual(["ReportError", "ExportError", "ReportRow"]);
    expect(of("function")).toEqual(["load_rows", "build_report", "write_report"]);
    expect(of("constant")).toEqual(["MAX_ROWS", "DEFAULT_TITLE"]);
    expect(of("parameter")).toEqual(["path", "rows", "title", "report", "target"]);
    expect(of("property")).toEqual(["order_id", "amount"]);
  });

  it("reads chunks with docstrings, imports, raises and except styles", () => {
    expect(facts.chunks.map((c) => [c.symbol, c.startLine, c.endLine])).toEqual([
      ["ReportError", 10, 11],
      ["ExportError", 14, 15],
      ["ReportRow", 18, 21],
      ["load_rows", 24, 30],
      ["build_report", 33, 39],
      ["write_report", 42, 47],
    ]);
    expect(facts.chunks.find((c) => c.symbol === "load_rows")?.doc).toBe("Reads the order rows from a JSON file (at most MAX_ROWS).");
    expect(facts.imports.map((i) => [i.specifier, i.style])).toEqual([
      ["json", "python-import"],
      ["dataclasses", "python-from"],
      ["pathlib", "python-from"],
    ]);
    expect(facts.errors.thrown).toEqual(["ReportError", "ExportError"]);
    expect(facts.errors.tryBlocks).toBe(2);
    expect(facts.errors.catches.rethrow).toBe(2);
  });

  it("recognises error classes, data classes, factories and try blocks", () => {
    expect(facts.patterns.map((p) => [p.pattern, p.symbol])).toEqual([
      ["custom-error-class", "ReportError"],
      ["custom-error-class", "ExportError"],
      ["data-class", "ReportRow"],
      ["error-handling", "load_rows"],
      ["factory-function", "build_report"],
      ["error-handling", "write_report"],
    ]);
  });
});

describe("Go, Rust and Java (tree-sitter)", () => {
  it("Go: functions, methods, structs, imports, error values and checks", async () => {
    const go = [
      "package store",
      "",
      "import (",
      '\t"errors"',
      '\t"fmt"',
      ")",
      "",
      "// NotFoundError says a key is missing.",
      "type NotFoundError struct {",
      "\tKey string",
      "}",
      "",
      "func (e *NotFoundError) Error() string {",
      '\treturn fmt.Sprintf("%s not found", e.Key)',
      "}",
      "",
      "// NewStore builds an empty store.",
      "func NewStore() *Store {",
      "\treturn &Store{items: map[string]string{}}",
      "}",
      "",
      "func (s *Store) Get(key string) (string, error) {",
      "\tvalue, err := s.load(key)",
      "\tif err != nil {",
      '\t\treturn "", fmt.Errorf("get %s: %w", key, err)',
      "\t}",
      '\tif value == "" {',
      '\t\treturn "", errors.New("empty")',
      "\t}",
      "\treturn value, nil",
      "}",
    ].join("\n");
    const facts = await analyzeFile("store/store.go", go, "go");
    expect(facts.declarations.filter((d) => ["class", "function", "method"].includes(d.kind)).map((d) => `${d.kind}:${d.name}`)).toEqual([
      "class:NotFoundError",
      "method:Error",
      "function:NewStore",
      "method:Get",
    ]);
    expect(facts.chunks.map((c) => c.symbol)).toEqual(["NotFoundError", "NotFoundError.Error", "NewStore", "Store.Get"]);
    expect(facts.chunks.find((c) => c.symbol === "NewStore")?.doc).toBe("NewStore builds an empty store.");
    expect(facts.imports.map((i) => i.specifier)).toEqual(["errors", "fmt"]);
    expect(facts.errors.errorChecks).toBe(1);
    expect(facts.errors.thrown).toEqual(["fmt.Errorf", "errors.New"]);
    expect(new Set(facts.patterns.map((p) => p.pattern))).toEqual(new Set(["custom-error-class", "factory-function", "error-handling"]));
    expect(facts.patterns.find((p) => p.pattern === "error-handling")).toMatchObject({ startLine: 24, endLine: 26, quality: 3 });
  });

  it("Rust: structs, impl methods, Result functions, use imports", async () => {
    const rust = [
      "use std::fmt;",
      "",
      "#[derive(Debug)]",
      "pub enum ParseError {",
      "    Empty,",
      "}",
      "",
      "pub struct Parser {",
      "    input: String,",
      "}",
      "",
      "impl Parser {",
      "    /// Creates a parser over `input`.",
      "    pub fn new(input: String) -> Self {",
      "        Parser { input }",
      "    }",
      "",
      "    pub fn parse(&self) -> Result<u32, ParseError> {",
      "        let trimmed = self.input.trim();",
      "        if trimmed.is_empty() {",
      "            return Err(ParseError::Empty);",
      "        }",
      "        Ok(trimmed.len() as u32)",
      "    }",
      "}",
    ].join("\n");
    const facts = await analyzeFile("src/parser.rs", rust, "rust");
    expect(facts.declarations.filter((d) => d.kind !== "variable" && d.kind !== "parameter").map((d) => `${d.kind}:${d.name}`)).toEqual([
      "enum:ParseError",
      "class:Parser",
      "method:new",
      "method:parse",
    ]);
    // The parser names parameters (`&self` is none); the line heuristic read none in Rust.
    expect(facts.declarations.filter((d) => d.kind === "parameter").map((d) => d.name)).toEqual(["input"]);
    expect(facts.chunks.map((c) => [c.symbol, c.startLine, c.endLine])).toEqual([
      ["ParseError", 3, 6],
      ["Parser", 8, 10],
      ["Parser.new", 14, 16],
      ["Parser.parse", 18, 24],
    ]);
    expect(facts.chunks.find((c) => c.symbol === "Parser.new")?.doc).toBe("Creates a parser over `input`.");
    expect(facts.imports.map((i) => i.specifier)).toEqual(["std::fmt"]);
    expect(facts.patterns.map((p) => p.pattern).sort()).toEqual([
      "custom-error-class",
      "discriminated-union",
      "factory-function",
      "result-type",
    ]);
  });

  it("Java: classes, methods, constants, throws and catches", async () => {
    const java = [
      "package app;",
      "",
      "import java.util.Map;",
      "",
      "public class MissingUserException extends RuntimeException {",
      "    public MissingUserException(String id) { super(id); }",
      "}",
      "",
      "public class UserService {",
      "    private static final int MAX_USERS = 10;",
      "",
      "    /** Finds a user or throws. */",
      "    public User findUser(String id) {",
      "        try {",
      "            return repository.get(id);",
      "        } catch (Exception e) {",
      "            throw new MissingUserException(id);",
      "        }",
      "    }",
      "}",
    ].join("\n");
    const facts = await analyzeFile("src/main/java/app/UserService.java", java, "java");
    expect(facts.declarations.filter((d) => ["class", "method", "constant"].includes(d.kind)).map((d) => `${d.kind}:${d.name}`)).toEqual([
      "class:MissingUserException",
      "class:UserService",
      "constant:MAX_USERS",
      "method:findUser",
    ]);
    expect(facts.imports.map((i) => i.specifier)).toEqual(["java.util.Map"]);
    expect(facts.errors.thrown).toEqual(["MissingUserException"]);
    expect(facts.errors.catches.rethrow).toBe(1);
    expect(facts.patterns.map((p) => p.pattern).sort()).toEqual(["custom-error-class", "error-handling"]);
  });
});

describe("C# (tree-sitter)", () => {
  it("reads types in a namespace, methods, constants, properties, using targets, throws and catches, with the XML doc as text", async () => {
    const cs = [
      "using System;",
      "using Shop.Models;",
      "",
      "namespace Shop.Services;",
      "",
      "public class MissingItemException : Exception",
      "{",
      "    public MissingItemException(string id) : base(id) { }",
      "}",
      "",
      "/// <summary>Finds items or throws.</summary>",
      "public class ItemService : IDisposable",
      "{",
      "    private const int MaxItems = 10;",
      "    public string Name { get; set; }",
      "",
      "    public Item FindItem(string id)",
      "    {",
      "        try { return store.Get(id); }",
      "        catch (KeyNotFoundException e) { throw new MissingItemException(id); }",
      "    }",
      "",
      "    public static ItemService Create(string name) => new ItemService();",
      "",
      "    public void Dispose() { }",
      "}",
      "",
    ].join("\n");
    const facts = await analyzeFile("src/Services/ItemService.cs", cs, "csharp");
    expect(facts.declarations.filter((d) => d.kind !== "parameter").map((d) => `${d.kind}:${d.name}${d.exported ? "*" : ""}`)).toEqual([
      "class:MissingItemException*",
      "class:ItemService*",
      "constant:MaxItems",
      "property:Name*",
      "method:FindItem*",
      "method:Create*",
      "method:Dispose*",
    ]);
    expect(facts.chunks.map((c) => [c.symbol, c.startLine, c.endLine, c.doc])).toEqual([
      ["MissingItemException", 6, 9, undefined],
      ["ItemService", 12, 26, "Finds items or throws."],
    ]);
    expect(facts.imports.map((i) => `${i.style}:${i.specifier}`)).toEqual(["csharp-using:System", "csharp-using:Shop.Models"]);
    expect(facts.errors.thrown).toEqual(["MissingItemException"]);
    expect(facts.errors.catches.rethrow).toBe(1);
    expect(facts.patterns.map((p) => `${p.pattern}:${p.symbol}`)).toEqual([
      "custom-error-class:MissingItemException",
      "disposable-resource:ItemService",
      "error-handling:ItemService.FindItem",
      "factory-function:Create",
    ]);
  });
});

describe("what the syntax tree gets right (tree-sitter)", () => {
  it("Go: each type of a `type ( … )` group is its own chunk with its own doc comment", async () => {
    const go = [
      "package geo",
      "",
      "type (",
      "\t// Point is a place.",
      "\tPoint struct{ X, Y int }",
      "",
      "\tpolygon struct {",
      "\t\tpoints []Point",
      "\t}",
      ")",
      "",
    ].join("\n");
    const facts = await analyzeFile("geo.go", go, "go");
    expect(facts.chunks.map((c) => [c.symbol, c.startLine, c.endLine, c.doc])).toEqual([
      ["Point", 5, 5, "Point is a place."],
      ["polygon", 7, 9, undefined],
    ]);
  });

  it("Rust: a trait is one chunk (its methods are not chunks of their own); an impl's methods are", async () => {
    const rust = [
      "pub trait Journal {",
      "    fn len(&self) -> usize {",
      "        0",
      "    }",
      "}",
      "",
      "impl Journal for Book {",
      "    fn len(&self) -> usize { 1 }",
      "}",
      "",
    ].join("\n");
    const facts = await analyzeFile("src/journal.rs", rust, "rust");
    expect(facts.chunks.map((c) => [c.symbol, c.startLine, c.endLine])).toEqual([
      ["Journal", 1, 5],
      ["Book.len", 8, 8],
    ]);
  });

  it("Python: strings and comments that look like code are not code, and __all__ decides what is exported", async () => {
    const python = [
      '__all__ = ["run"]',
      "",
      'HELP = """',
      "def not_a_function():",
      '    raise ValueError("no")',
      '"""',
      "",
      "# class NotAClass:",
      "",
      "def run(path):",
      "    return path",
      "",
      "def helper():",
      "    pass",
      "",
    ].join("\n");
    const facts = await analyzeFile("tool.py", python, "python");
    expect(facts.declarations.filter((d) => d.kind === "function" || d.kind === "class").map((d) => [d.name, d.exported])).toEqual([
      ["run", true],
      ["helper", false],
    ]);
    expect(facts.errors.thrown).toEqual([]);
  });
});

describe("TypeScript (tree-sitter)", () => {
  it("reads object-literal methods, Result returns, type-only imports and JSDoc", async () => {
    const path = "src/user-service.ts";
    const facts = await analyzeFile(path, readFileSync(join(FIXTURE_REPO, path), "utf8"), "typescript");
    expect(facts.declarations.filter((d) => d.kind === "method").map((d) => d.name)).toEqual(["findUser", "validateEmail"]);
    expect(facts.imports).toEqual([
      { specifier: "node:fs/promises", style: "esm-named", typeOnly: false },
      { specifier: "./errors.js", style: "esm-named", typeOnly: false },
      { specifier: "./result.js", style: "esm-named", typeOnly: false },
    ]);
    expect(facts.patterns.map((p) => `${p.pattern}:${p.symbol}`)).toEqual([
      "factory-function:createUserService",
      "options-object:createUserService",
      "error-handling:loadUsers",
      "result-type:createUserService.findUser",
    ]);
    expect(facts.chunks.find((c) => c.symbol === "createUserService")?.doc).toBe("Builds the user service over one JSON file of users.");
  });
});
