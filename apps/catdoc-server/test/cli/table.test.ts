/** The terminal tables: columns aligned by display width (wide, combining, astral characters), the last column unpadded, controls removed. */
import { describe, expect, it } from "vitest";
import { renderTable } from "../../src/cli/table.js";
import { displayWidth } from "../../src/cli/text-width.js";

describe("displayWidth", () => {
  it("counts ASCII, wide (CJK, emoji), combining and astral characters as a terminal shows them", () => {
    expect(displayWidth("abc")).toBe(3);
    expect(displayWidth("要件")).toBe(4);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("g∘f")).toBe(3);
    expect(displayWidth("😀x")).toBe(3);
    expect(displayWidth("𝒜b")).toBe(2);
  });
});

describe("renderTable", () => {
  it("aligns by display width, leaves the last column unpadded, and turns control characters into spaces", () => {
    const text = renderTable(
      ["ID", "NAME", "MESSAGE"],
      [
        ["要件", "a\u001b[2Jb", "g∘f (A → C)"],
        ["x", "y", "last\tcolumn"],
      ],
    );
    expect(text).toBe(["ID    NAME    MESSAGE", "要件  a [2Jb  g∘f (A → C)", "x     y       last column", ""].join("\n"));
  });
});
