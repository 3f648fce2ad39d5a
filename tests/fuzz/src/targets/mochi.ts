/**
 * mochi-mcp with the catalog its own tests index from their sample repository and no model:
 * suggest_pattern works from the catalog; the model tools answer NOT_READY (a coded error).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { appEntry } from "./sandbox.js";
import { BASE_ENV, type FuzzTarget } from "./target.js";

/** MOCHI_DEADLINE_MS: the deadline of every mochi tool (set explicitly to its documented default). */
const MOCHI_DEADLINE_MS = 5_000;

export const mochiTarget: FuzzTarget = {
  name: "mochi-mcp",
  short: "mochi",
  entry: appEntry("mochi-server"),
  strict: true,
  prepare: async (dir) => {
    const cwd = join(dir, "work");
    await mkdir(cwd, { recursive: true });
    return {
      env: {
        ...BASE_ENV,
        MOCHI_CATALOG: appEntry("mochi-server", "test/fixtures/sample-repo.catalog.json"),
        MOCHI_MODEL: "",
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
      golden: [
        { tool: "suggest_pattern", arguments: { goal: "handle errors in a service" } },
        { tool: "suggest_pattern", arguments: { goal: "export a report", limit: 10, response_level: "full" } },
        { tool: "domain_query", arguments: { instruction: "How are errors handled here?" } },
        { tool: "complete_code", arguments: { prefix: "export function add(a: number, b: number) {\n  return " } },
      ],
    };
  },
};
