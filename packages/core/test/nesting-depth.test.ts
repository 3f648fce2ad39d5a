import { describe, expect, it } from "vitest";
import { nestingDepth } from "../src/index.js";

describe("nestingDepth", () => {
  it("counts objects and arrays as levels, scalars as none", () => {
    expect(nestingDepth("x", 10)).toBe(0);
    expect(nestingDepth(null, 10)).toBe(0);
    expect(nestingDepth({}, 10)).toBe(1);
    expect(nestingDepth({ a: [1, { b: 2 }] }, 10)).toBe(3);
  });

  it("stops past the limit without recursing, so 100,000 levels do not overflow the stack", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { v: deep };
    expect(nestingDepth(deep, 64)).toBe(65);
  });
});
