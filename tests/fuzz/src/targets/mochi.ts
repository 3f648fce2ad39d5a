/**
 * mochi-mcp with the catalog its own tests index from their sample repository and the tiny
 * generated model (with fill-in-the-middle tokens) and LoRA of core/testing: suggest_pattern
 * works from the catalog; domain_query and complete_code run real llama.cpp inference (CPU, one
 * thread), held to the same deadline as every mochi tool.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { appEntry } from "./sandbox.js";
import { BASE_ENV, type FuzzTarget } from "./target.js";
import { writeTinyLora, writeTinyModel } from "./tiny-model.js";

/** MOCHI_DEADLINE_MS: the deadline of every mochi tool, model tools included (its documented default). */
const MOCHI_DEADLINE_MS = 5_000;
/** MOCHI_CONTEXT_SIZE: prompt + max_tokens must fit; larger asks are INVALID_INPUT before generation. */
const CONTEXT_SIZE = 2_048;

export const mochiTarget: FuzzTarget = {
  name: "mochi-mcp",
  short: "mochi",
  entry: appEntry("mochi-server"),
  strict: true,
  prepare: async (dir) => {
    const cwd = join(dir, "work");
    await mkdir(cwd, { recursive: true });
    const model = await writeTinyModel(dir, { fim: true, contextLength: CONTEXT_SIZE });
    const adapter = await writeTinyLora(dir);
    return {
      env: {
        ...BASE_ENV,
        MOCHI_CATALOG: appEntry("mochi-server", "test/fixtures/sample-repo.catalog.json"),
        MOCHI_MODEL: model,
        MOCHI_ADAPTER: adapter,
        MOCHI_GPU: "cpu",
        MOCHI_THREADS: "1",
        MOCHI_CONTEXT_SIZE: String(CONTEXT_SIZE),
        MOCHI_DEADLINE_MS: String(MOCHI_DEADLINE_MS),
      },
      cwd,
      hints: {
        goal: ["handle errors in a service", "validate user input", "export a report", "retry a request"],
        context: ["async function load(id: string) {\n  return fetch(id);\n}\n"],
        instruction: ["How are errors handled here?"],
        prefix: ["export function add(a: number, b: number) {\n  return "],
        suffix: ["\n}\n"],
        language: ["typescript", "python"],
      },
      writeFields: new Set(),
      sandbox: { outside: join(dir, "outside") },
      symlinkNames: [],
      deadlineMs: () => MOCHI_DEADLINE_MS,
      // The model loads in the background after start: wait for it before the fuzz begins.
      warmUp: { tool: "domain_query", arguments: { instruction: "How are errors handled here?", max_tokens: 1 } },
      golden: [
        { tool: "suggest_pattern", arguments: { goal: "handle errors in a service" } },
        { tool: "suggest_pattern", arguments: { goal: "export a report", limit: 10, response_level: "full" } },
        { tool: "domain_query", arguments: { instruction: "How are errors handled here?" } },
        {
          tool: "domain_query",
          arguments: { instruction: "Where is input validated?", input: "function check(x) {}", max_tokens: 64, response_level: "full" },
        },
        { tool: "complete_code", arguments: { prefix: "export function add(a: number, b: number) {\n  return " } },
        {
          tool: "complete_code",
          arguments: {
            prefix: "def add(a, b):\n    return ",
            suffix: "\n\nprint(add(1, 2))\n",
            language: "python",
            max_tokens: 32,
            response_level: "full",
          },
        },
      ],
    };
  },
};
