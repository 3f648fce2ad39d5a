/**
 * The code-analysis layer's answers on a corpus: one real-world-shaped file per language, written
 * for this test (test/code-analysis/corpus/, stored as .txt so no formatter or linter rewrites
 * them), every answer checked whole against what docs/local-model.md ("What the answers mean")
 * defines. Notable cases: Python's `__all__` (with `+=`) overriding the public names, imports under
 * TYPE_CHECKING, in try/except and inside a method, nested classes, decorators; TS re-exports
 * (`export *` names nothing, `export * as ns` and `export { a as b } from` do), a default export
 * of a local class, overloads listed once, destructured exports; CommonJS exports as Node's
 * interop sees them; Go's capitalised names but not methods; Rust `pub use` lists, `pub(crate)`/`pub(super)`,
 * impl and inline-module items; Java and C# public top-level types only, nested types with their
 * container, static imports and aliases as full names.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type SourceAnalysis, analyzeSource, languageOf } from "../../src/code-analysis/index.js";

const CORPUS = new URL("./corpus/", import.meta.url);

const EXPECTED: Record<string, SourceAnalysis> = {
  /** Python. */
  "billing.py.txt": {
    language: "python",
    exports: ["Invoice", "total", "LineItem"],
    imports: ["__future__", "logging", "os.path", "dataclasses", "typing", ".", ".rates", "collections.abc", "ujson", "json", "smtplib"],
    importedNames: [
      { module: "__future__", names: ["annotations"], line: 2 },
      { module: "logging", names: [], line: 4 },
      { module: "os.path", names: [], alias: "osp", line: 5 },
      { module: "dataclasses", names: ["dataclass", "field"], line: 6 },
      { module: "typing", names: ["TYPE_CHECKING", "Iterable"], line: 7 },
      { module: ".", names: ["money"], line: 9 },
      { module: ".rates", names: ["TaxRate as Rate"], line: 10 },
      { module: "collections.abc", names: ["Sequence"], line: 13 },
      { module: "ujson", names: [], alias: "json", line: 16 },
      { module: "json", names: [], line: 18 },
      { module: "smtplib", names: [], line: 52 },
    ],
    functions: [
      { name: "label", container: "LineItem", params: ["self"], async: false, exported: false, line: 34, endLine: 35 },
      {
        name: "allowed",
        container: "Invoice.Status.Transition",
        params: ["self", "source", "target"],
        async: false,
        exported: false,
        line: 45,
        endLine: 46,
      },
      {
        name: "__init__",
        container: "Invoice",
        params: ["self", "number", "*items", "currency", "**meta"],
        async: false,
        exported: false,
        line: 48,
        endLine: 49,
      },
      { name: "send", container: "Invoice", params: ["self", "recipient", "retries"], async: true, exported: false, line: 51, endLine: 57 },
      { name: "parse", container: "Invoice", params: ["text"], async: false, exported: false, line: 60, endLine: 60 },
      { name: "total", params: ["items", "rate"], async: false, exported: true, line: 63, endLine: 64 },
      { name: "_refresh_rates", params: ["path"], async: true, exported: false, line: 67, endLine: 68 },
    ],
    types: [
      { name: "LineItem", kind: "class", exported: true, line: 29, endLine: 35 },
      { name: "Invoice", kind: "class", exported: true, line: 38, endLine: 60 },
      { name: "Status", kind: "class", container: "Invoice", exported: false, line: 41, endLine: 46 },
      { name: "Transition", kind: "class", container: "Invoice.Status", exported: false, line: 44, endLine: 46 },
    ],
    dependencies: [
      "__future__",
      "logging",
      "os.path",
      "dataclasses",
      "typing",
      ".",
      ".rates",
      "collections.abc",
      "ujson",
      "json",
      "smtplib",
    ],
    syntaxErrors: [],
  },
  /** TypeScript. */
  "orders.ts.txt": {
    language: "typescript",
    exports: [
      "schema",
      "formatOrder",
      "readOrder",
      "Discount",
      "Order",
      "OrderId",
      "OrderStatus",
      "MAX_LINES",
      "DEFAULT_CURRENCY",
      "retries",
      "firstDelay",
      "laterDelays",
      "totalOf",
      "byId",
      "OrderStore",
      "Cache",
      "clocks",
      "legacy",
      "default",
    ],
    imports: ["node:events", "./money.js", "./clock.js", "./legacy-orders", "./reports.js", "node:util"],
    importedNames: [
      { module: "node:events", names: ["EventEmitter"], line: 2 },
      { module: "./money.js", names: ["Money", "Currency"], line: 3 },
      { module: "./clock.js", names: ["defaultClock", "* as clocks"], line: 4 },
      { module: "./legacy-orders", names: ["legacy"], line: 5 },
      { module: "./reports.js", names: [], line: 61 },
      { module: "node:util", names: ["deprecate"], line: 62 },
    ],
    functions: [
      { name: "loadPolicy", params: [], async: false, exported: false, line: 29, endLine: 31 },
      { name: "totalOf", params: ["order", "currency"], async: false, exported: true, line: 34, endLine: 36 },
      { name: "byId", params: ["orders", "id"], async: true, exported: true, line: 38, endLine: 39 },
      { name: "constructor", container: "OrderStore", params: ["clock"], async: false, exported: false, line: 44, endLine: 46 },
      { name: "save", container: "OrderStore", params: ["order", "...tags"], async: true, exported: false, line: 48, endLine: 50 },
      { name: "size", container: "OrderStore", params: [], async: false, exported: false, line: 52, endLine: 54 },
      { name: "lazyReports", params: [], async: false, exported: false, line: 61, endLine: 61 },
    ],
    types: [
      { name: "Order", kind: "interface", exported: true, line: 12, endLine: 15 },
      { name: "OrderId", kind: "type", exported: true, line: 17, endLine: 17 },
      { name: "OrderStatus", kind: "enum", exported: true, line: 19, endLine: 22 },
      { name: "OrderStore", kind: "class", exported: true, line: 41, endLine: 57 },
      { name: "MemoryCache", kind: "class", exported: true, line: 59, endLine: 59 },
    ],
    dependencies: [
      "node:events",
      "./money.js",
      "./clock.js",
      "./legacy-orders",
      "./reports.js",
      "node:util",
      "./order-events.js",
      "./order-schema.js",
      "./order-format.js",
      "./discounts.js",
    ],
    syntaxErrors: [],
  },
  /** TSX. */
  "cart.tsx.txt": {
    language: "tsx",
    exports: ["CartLine", "Cart", "default"],
    imports: ["react", "./orders"],
    importedNames: [
      { module: "react", names: ["React", "useState"], line: 2 },
      { module: "./orders", names: ["formatOrder"], line: 3 },
    ],
    functions: [
      { name: "CartLine", params: ["{ label }"], async: false, exported: true, line: 10, endLine: 12 },
      { name: "Cart", params: ["{ items, onCheckout }"], async: false, exported: true, line: 14, endLine: 24 },
      { name: "CartPage", params: ["props"], async: false, exported: true, line: 26, endLine: 28 },
    ],
    types: [{ name: "CartProps", kind: "interface", exported: false, line: 5, endLine: 8 }],
    dependencies: ["react", "./orders"],
    syntaxErrors: [],
  },
  /** JavaScript. */
  "server.js.txt": {
    language: "javascript",
    exports: ["default", "start", "Server", "version", "chunks", "root"],
    imports: ["node:http", "fs/promises", "path", "./routes.js"],
    importedNames: [
      { module: "node:http", names: ["http"], line: 4 },
      { module: "fs/promises", names: ["readFile"], line: 5 },
      { module: "path", names: ["path"], line: 6 },
      { module: "./routes.js", names: [], line: 9 },
    ],
    functions: [
      { name: "start", params: ["port", "{ host }"], async: true, exported: true, line: 8, endLine: 11 },
      { name: "chunks", params: ["text", "size"], async: false, exported: true, line: 13, endLine: 15 },
      { name: "create", container: "Server", params: ["options"], async: false, exported: false, line: 18, endLine: 20 },
    ],
    types: [{ name: "Server", kind: "class", exported: true, line: 17, endLine: 21 }],
    dependencies: ["node:http", "fs/promises", "path", "./routes.js"],
    syntaxErrors: [],
  },
  /** Go. */
  "shapes.go.txt": {
    language: "go",
    exports: ["ErrEmpty", "Registry", "Width", "Pi", "Shape", "Point", "Label", "Set", "New", "Describe"],
    imports: ["errors", "fmt", "math", "embed", "strings"],
    importedNames: [
      { module: "errors", names: [], line: 5 },
      { module: "fmt", names: [], line: 6 },
      { module: "math", names: [], alias: "m", line: 7 },
      { module: "embed", names: [], alias: "_", line: 9 },
      { module: "strings", names: [], line: 12 },
    ],
    functions: [
      { name: "New", params: ["items"], async: false, exported: true, line: 43, endLine: 45 },
      { name: "Area", container: "polygon", params: [], async: false, exported: false, line: 47, endLine: 47 },
      { name: "Add", container: "Set", params: ["item"], async: false, exported: false, line: 49, endLine: 49 },
      { name: "Describe", params: ["s", "prefix", "suffix"], async: false, exported: true, line: 51, endLine: 53 },
      { name: "scale", params: ["v"], async: false, exported: false, line: 55, endLine: 55 },
    ],
    types: [
      { name: "Shape", kind: "interface", exported: true, line: 28, endLine: 31 },
      { name: "Point", kind: "struct", exported: true, line: 34, endLine: 34 },
      { name: "polygon", kind: "struct", exported: false, line: 35, endLine: 37 },
      { name: "Label", kind: "alias", exported: true, line: 38, endLine: 38 },
      { name: "Set", kind: "type", exported: true, line: 41, endLine: 41 },
    ],
    dependencies: ["errors", "fmt", "math", "embed", "strings"],
    syntaxErrors: [],
  },
  /** Rust. */
  "ledger.rs.txt": {
    language: "rust",
    exports: ["Amount", "Currency", "ExchangeRate", "MAX_ENTRIES", "Entry", "Side", "Journal", "Book", "sync_remote", "report"],
    imports: [
      "std::collections::BTreeMap",
      "std::collections::HashMap",
      "std::fmt",
      "std::fmt::Display",
      "std::sync::Arc",
      "crate::money::Amount",
      "crate::money::currency::Currency",
      "crate::money::currency::Rate",
      "crate::errors::*",
      "crate::store::Store",
      "serde",
      "std::time::Duration",
      "super::*",
    ],
    importedNames: [
      { module: "std::collections", names: ["BTreeMap", "HashMap"], line: 2 },
      { module: "std::fmt", names: ["self", "Display"], line: 3 },
      { module: "std::sync", names: ["Arc as Shared"], line: 4 },
      { module: "crate::money", names: ["Amount"], line: 5 },
      { module: "crate::money::currency", names: ["Currency", "Rate as ExchangeRate"], line: 5 },
      { module: "crate::errors", names: ["*"], line: 6 },
      { module: "crate::store", names: ["Store"], line: 7 },
      { module: "serde", names: [], line: 8 },
      { module: "std::time", names: ["Duration"], line: 48 },
      { module: "super", names: ["*"], line: 68 },
    ],
    functions: [
      { name: "record", container: "Journal", params: ["self", "entry"], async: false, exported: false, line: 27, endLine: 27 },
      { name: "len", container: "Journal", params: ["self"], async: false, exported: false, line: 28, endLine: 30 },
      { name: "fmt", container: "Entry", params: ["self", "f"], async: false, exported: false, line: 36, endLine: 38 },
      { name: "new", container: "Entry", params: ["amount", "memo"], async: false, exported: false, line: 42, endLine: 44 },
      { name: "sync_remote", params: ["ledger", "retries"], async: true, exported: true, line: 47, endLine: 52 },
      { name: "rebuild", params: ["_index"], async: false, exported: false, line: 54, endLine: 54 },
      { name: "checksum", params: ["(a, b)"], async: false, exported: false, line: 56, endLine: 58 },
    ],
    types: [
      { name: "Entry", kind: "struct", exported: true, line: 14, endLine: 17 },
      { name: "Side", kind: "enum", exported: true, line: 19, endLine: 22 },
      { name: "Index", kind: "struct", exported: false, line: 24, endLine: 24 },
      { name: "Journal", kind: "trait", exported: true, line: 26, endLine: 31 },
      { name: "Book", kind: "type", exported: true, line: 33, endLine: 33 },
    ],
    dependencies: [
      "std::collections::BTreeMap",
      "std::collections::HashMap",
      "std::fmt",
      "std::fmt::Display",
      "std::sync::Arc",
      "crate::money::Amount",
      "crate::money::currency::Currency",
      "crate::money::currency::Rate",
      "crate::errors::*",
      "crate::store::Store",
      "serde",
      "std::time::Duration",
      "super::*",
    ],
    syntaxErrors: [],
  },
  /** Java. */
  "InventoryService.java.txt": {
    language: "java",
    exports: ["InventoryService", "Stock", "Unit"],
    imports: [
      "java.util.List",
      "java.util.Map",
      "java.util.concurrent.*",
      "java.util.Objects.requireNonNull",
      "com.acme.inventory.model.Item",
    ],
    importedNames: [
      { module: "java.util", names: ["List"], line: 4 },
      { module: "java.util", names: ["Map"], line: 5 },
      { module: "java.util.concurrent", names: ["*"], line: 6 },
      { module: "java.util.Objects", names: ["requireNonNull"], static: true, line: 7 },
      { module: "com.acme.inventory.model", names: ["Item"], line: 9 },
    ],
    functions: [
      { name: "InventoryService", container: "InventoryService", params: ["items"], async: false, exported: false, line: 16, endLine: 18 },
      { name: "close", container: "InventoryService", params: [], async: false, exported: false, line: 21, endLine: 21 },
      { name: "query", container: "InventoryService", params: ["query", "tags"], async: false, exported: false, line: 23, endLine: 25 },
      { name: "lookup", container: "InventoryService.Cache", params: ["key"], async: false, exported: false, line: 28, endLine: 28 },
      { name: "evicts", container: "InventoryService.Cache.Policy", params: [], async: false, exported: false, line: 30, endLine: 30 },
      {
        name: "changed",
        container: "InventoryService.Listener",
        params: ["key", "before", "after"],
        async: false,
        exported: false,
        line: 34,
        endLine: 34,
      },
      { name: "audit", container: "Auditor", params: ["entry"], async: false, exported: false, line: 39, endLine: 39 },
    ],
    types: [
      { name: "InventoryService", kind: "class", exported: true, line: 13, endLine: 36 },
      { name: "Cache", kind: "class", container: "InventoryService", exported: false, line: 27, endLine: 31 },
      { name: "Policy", kind: "enum", container: "InventoryService.Cache", exported: false, line: 30, endLine: 30 },
      { name: "Listener", kind: "interface", container: "InventoryService", exported: false, line: 33, endLine: 35 },
      { name: "Auditor", kind: "interface", exported: false, line: 38, endLine: 40 },
      { name: "Stock", kind: "record", exported: true, line: 42, endLine: 46 },
      { name: "Unit", kind: "enum", exported: true, line: 48, endLine: 48 },
      { name: "Internal", kind: "annotation", exported: false, line: 50, endLine: 50 },
    ],
    dependencies: [
      "java.util.List",
      "java.util.Map",
      "java.util.concurrent.*",
      "java.util.Objects.requireNonNull",
      "com.acme.inventory.model.Item",
    ],
    syntaxErrors: [],
  },
  /** C#. */
  "Catalog.cs.txt": {
    language: "csharp",
    exports: ["Product", "Price", "Availability", "Review", "Changed", "CsvReader"],
    imports: ["System", "System.Collections.Generic", "System.Math", "System.Text.Json", "System.Linq"],
    importedNames: [
      { module: "System", names: [], line: 2 },
      { module: "System.Collections.Generic", names: [], line: 3 },
      { module: "System.Math", names: [], static: true, line: 4 },
      { module: "System.Text.Json", names: [], alias: "Json", line: 5 },
      { module: "System.Linq", names: [], line: 6 },
    ],
    functions: [
      { name: "Product", container: "Product", params: ["id", "name"], async: false, exported: false, line: 13, endLine: 13 },
      { name: "PriceAsync", container: "Product", params: ["currency", "discounts"], async: true, exported: false, line: 15, endLine: 18 },
      { name: "Round", container: "Product", params: ["value"], async: false, exported: false, line: 20, endLine: 20 },
      { name: "Describe", container: "Product.Variant", params: ["verbose"], async: false, exported: false, line: 24, endLine: 24 },
      { name: "Find", container: "IRepository", params: ["id"], async: false, exported: false, line: 30, endLine: 30 },
      { name: "Rows", container: "CsvReader", params: ["text"], async: false, exported: false, line: 45, endLine: 45 },
    ],
    types: [
      { name: "Product", kind: "class", exported: true, line: 11, endLine: 26 },
      { name: "Variant", kind: "class", container: "Product", exported: false, line: 22, endLine: 25 },
      { name: "IRepository", kind: "interface", exported: false, line: 28, endLine: 31 },
      { name: "Price", kind: "struct", exported: true, line: 33, endLine: 33 },
      { name: "Availability", kind: "enum", exported: true, line: 35, endLine: 35 },
      { name: "Review", kind: "record", exported: true, line: 37, endLine: 37 },
      { name: "Changed", kind: "delegate", exported: true, line: 39, endLine: 39 },
      { name: "CsvReader", kind: "class", exported: true, line: 43, endLine: 46 },
    ],
    dependencies: ["System", "System.Collections.Generic", "System.Math", "System.Text.Json", "System.Linq"],
    syntaxErrors: [],
  },
};

describe("code analysis on the corpus", () => {
  it.each(Object.keys(EXPECTED))("answers %s exactly", async (file) => {
    const path = file.replace(/\.txt$/, "");
    const text = readFileSync(new URL(file, CORPUS), "utf8");
    expect(languageOf(path)).toBe(EXPECTED[file]?.language);
    expect(await analyzeSource({ path, text })).toEqual(EXPECTED[file]);
  });
});
