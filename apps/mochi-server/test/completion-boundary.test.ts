import { describe, expect, it } from "vitest";
import { cutAtBoundary } from "../src/domain/model/completion-boundary.js";

describe("completions stop at a sensible boundary", () => {
  it("mid-line: completes the line", () => {
    expect(cutAtBoundary("a + b;\n}\n\nfunction next() {", { prefix: "function add(a, b) {\n  return ", suffix: "\n}\n" })).toEqual({
      text: "a + b;",
      reason: "line-end",
    });
  });

  it("mid-line opening a block: completes the block", () => {
    const generated = "{\n    handle(item);\n  }\n  done();\n";
    expect(cutAtBoundary(generated, { prefix: "function f(items) {\n  for (const item of items) ", suffix: "" })).toEqual({
      text: "{\n    handle(item);\n  }",
      reason: "block-end",
    });
  });

  it("at a line start: stops where the enclosing block closes, leaving the brace to the suffix", () => {
    const generated = "  const x = 1;\n  return x;\n}\n\nexport const y = 2;";
    expect(cutAtBoundary(generated, { prefix: "function f() {\n", suffix: "}\n" })).toEqual({
      text: "  const x = 1;\n  return x;",
      reason: "block-end",
    });
    // With nothing after the cursor, the closing brace is part of the completion.
    expect(cutAtBoundary(generated, { prefix: "function f() {\n", suffix: "" })).toEqual({
      text: "  const x = 1;\n  return x;\n}",
      reason: "block-end",
    });
  });

  it("at a line start: stops at a blank line", () => {
    expect(cutAtBoundary("const a = 1;\nconst b = 2;\n\nconst c = 3;", { prefix: "// values\n", suffix: "" })).toEqual({
      text: "const a = 1;\nconst b = 2;",
      reason: "blank-line",
    });
  });

  it("stops where the model starts repeating the suffix", () => {
    const suffix = "\n  return result;\n}";
    expect(cutAtBoundary("  const result = compute();\n  return result;\n}", { prefix: "function g() {\n", suffix })).toEqual({
      text: "  const result = compute();",
      reason: "suffix",
    });
  });

  it("Python: completes the line, or a block until the dedent", () => {
    expect(cutAtBoundary("a + b\n\ndef other():", { prefix: "def add(a, b):\n    return ", suffix: "", language: "python" })).toEqual({
      text: "a + b",
      reason: "line-end",
    });
    const block = "\n        total += row.amount\n    return total\n";
    expect(
      cutAtBoundary(block, { prefix: "def total(rows):\n    total = 0\n    for row in rows:", suffix: "", language: "python" }),
    ).toEqual({
      text: "\n        total += row.amount",
      reason: "dedent",
    });
  });

  it("keeps everything when no boundary comes (max tokens)", () => {
    expect(cutAtBoundary("const value = compute(", { prefix: "", suffix: "" })).toEqual({ text: "const value = compute(", reason: "none" });
  });
});
