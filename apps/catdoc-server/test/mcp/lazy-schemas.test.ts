/**
 * Start-up (issue #14): initialize must not wait for zod schemas, so no tool's input or output
 * schema is built before the first tools/list or call (lazySchema + getters, kept by bindCatDocTool).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { CATDOC_TOOLS } from "../../src/tools/index.js";
import { useCatDoc } from "./helpers.js";

const { example } = useCatDoc();

afterEach(() => {
  vi.restoreAllMocks();
});

describe("tool schemas are built on first use", () => {
  it("connecting (initialize) reads no tool's input or output schema; tools/list reads every one", async () => {
    const reads: string[] = [];
    for (const tool of CATDOC_TOOLS) {
      for (const key of ["input", "output"] as const) {
        const get = Object.getOwnPropertyDescriptor(tool, key)?.get;
        if (get === undefined) throw new Error(`${tool.name}.${key} is built at import (a value, not a getter)`);
        vi.spyOn(tool, key, "get").mockImplementation(() => {
          reads.push(`${tool.name}.${key}`);
          return get.call(tool) as never;
        });
      }
    }
    const { client } = await example("math-docs");
    expect(reads).toEqual([]);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(CATDOC_TOOLS.length);
    expect(new Set(reads).size).toBe(CATDOC_TOOLS.length * 2);
  });
});
