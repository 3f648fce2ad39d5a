/**
 * Start-up (issue #14): initialize must not wait for zod schemas, so no tool's input or output
 * schema is built before the first tools/list or call (lazySchema + getters, kept by withToolErrors
 * in tools/catdoc-tool.ts). Every tool a server gets from catDocTools is watched from the moment
 * it is made, before the server is created.
 */
import type { AnyToolDefinition } from "@local-mcp/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import type * as ToolsIndex from "../../src/tools/index.js";
import { useCatDoc } from "./helpers.js";

const watched = vi.hoisted(() => ({ tools: [] as AnyToolDefinition[], reads: [] as string[] }));

vi.mock("../../src/tools/index.js", async (importOriginal) => {
  const original = await importOriginal<typeof ToolsIndex>();
  return {
    ...original,
    catDocTools: (...args: Parameters<typeof original.catDocTools>) => {
      const tools = original.catDocTools(...args);
      for (const tool of tools) {
        for (const key of ["input", "output"] as const) {
          const get = Object.getOwnPropertyDescriptor(tool, key)?.get;
          if (get === undefined) throw new Error(`${tool.name}.${key} is built at import (a value, not a getter)`);
          vi.spyOn(tool, key, "get").mockImplementation(() => {
            watched.reads.push(`${tool.name}.${key}`);
            return get.call(tool) as never;
          });
        }
      }
      watched.tools.push(...tools);
      return tools;
    },
  };
});

const { example } = useCatDoc();

afterEach(() => {
  vi.restoreAllMocks();
});

describe("tool schemas are built on first use", () => {
  it("connecting (initialize) reads no tool's input or output schema; tools/list reads every one", async () => {
    const { reads } = watched;
    const { client } = await example("math-docs");
    const made = watched.tools;
    expect(made).toHaveLength(22);
    expect(reads).toEqual([]);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(made.length);
    expect(new Set(reads).size).toBe(made.length * 2);
  });
});
