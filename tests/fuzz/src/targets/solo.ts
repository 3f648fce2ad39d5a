/**
 * solo-assets-mcp on a fresh library: the built-in local embedder, no critic, short install and
 * test limits. Fuzzed saves carry junk code that the lint step rejects in milliseconds; a rare
 * golden save runs the real quality gate (ruff, mypy, a sandboxed test run in a pooled venv).
 * export_function writes into the served root (hostile `to` paths and a symlink out are fuzzed;
 * a write outside fails the run). No save may ask pip for a made-up package: dependencies that
 * could pass solo's requirement check are dropped before sending, and pip and uv run offline.
 */
import { join } from "node:path";
import { Big, cloneValue, defineOwn } from "../wire-value.js";
import { appEntry, linkOut, makeSandbox, writesOutside } from "./sandbox.js";
import { BASE_ENV, CORE_DEFAULT_DEADLINE_MS, type FuzzTarget } from "./target.js";

const INSTALL_TIMEOUT_MS = 20_000;
const TEST_TIMEOUT_MS = 10_000;
const CRITIC_TIMEOUT_MS = 1_000;
/** save_function's own deadline (save-function.ts): install + 2 × test + critic + 60 s. */
const SAVE_DEADLINE_MS = INSTALL_TIMEOUT_MS + 2 * TEST_TIMEOUT_MS + CRITIC_TIMEOUT_MS + 60_000;

const SLUGIFY = `import re


def fuzz_slugify(title: str) -> str:
    """Turn a title into a URL slug: lower case, ASCII words joined by dashes."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)
`;

/** Characters a PEP 508 requirement can be made of; a string of only these might reach pip. */
const REQUIREMENT_CHARS = /^[A-Za-z0-9._\-[\],=<>~!*+\s]*$/;

/** Whether a value could be a string made of requirement characters only (recipes included). */
function mightInstall(item: unknown): boolean {
  if (typeof item === "string") return REQUIREMENT_CHARS.test(item);
  if (item instanceof Big) {
    const spec = item.spec;
    if (spec.$fuzz === "repeat") return REQUIREMENT_CHARS.test(spec.unit);
    if (spec.$fuzz === "fill") return mightInstall(spec.item);
  }
  return false;
}

/** Drops from save_function's dependencies every string that solo could accept as a requirement. */
export function withoutInstallableDependencies(tool: string, args: unknown): unknown {
  if (tool !== "save_function" || typeof args !== "object" || args === null || Array.isArray(args) || args instanceof Big) return args;
  const dependencies = (args as Record<string, unknown>).dependencies;
  let kept: unknown;
  if (Array.isArray(dependencies)) kept = dependencies.filter((item) => !mightInstall(item));
  else if (mightInstall(dependencies)) kept = [];
  else return args;
  const out = cloneValue(args as Record<string, unknown>);
  defineOwn(out, "dependencies", kept);
  return out;
}

export const soloTarget: FuzzTarget = {
  name: "solo-assets-mcp",
  short: "solo",
  entry: appEntry("solo-assets-server"),
  strict: true,
  prepare: async (dir) => {
    // The project export_function writes into is the server's working directory: the sandbox's root,
    // with a symlink out of it and a sentinel outside.
    const sandbox = await makeSandbox(dir);
    await linkOut(sandbox, "leak-dir", "dir");
    const cwd = sandbox.root;
    return {
      env: {
        ...BASE_ENV,
        SOLO_DB_PATH: join(dir, "library.duckdb"),
        SOLO_ENVS_DIR: join(dir, "envs"),
        SOLO_EMBEDDER: "local",
        SOLO_CRITIC: "off",
        SOLO_INSTALL_TIMEOUT_MS: String(INSTALL_TIMEOUT_MS),
        SOLO_TEST_TIMEOUT_MS: String(TEST_TIMEOUT_MS),
        SOLO_CRITIC_TIMEOUT_MS: String(CRITIC_TIMEOUT_MS),
        PIP_NO_INDEX: "1",
        UV_OFFLINE: "1",
      },
      cwd,
      hints: {
        name: ["fuzz_slugify", "fuzz_median", "missing_function"],
        query: ["turn a title into a slug", "median of values", "parse dates"],
        description: ["Turn a title into a URL slug."],
        code: ["def fuzz_broken(:\n    pass\n", "print('hello'", "def fuzz_median(values):\n    return sorted(values)[len(values) //\n"],
        tags: ["text", "fixture", "urls"],
        text: ["slug", "fuzz"],
        to: [".", "lib", "leak-dir"],
      },
      writeFields: new Set(["to"]),
      sandbox: { outside: sandbox.outside },
      symlinkNames: ["leak-dir", "leak-dir/secret.md"],
      sentinel: sandbox.sentinel,
      writesOutside: () => writesOutside(dir, sandbox),
      deadlineMs: (tool) => (tool === "save_function" ? SAVE_DEADLINE_MS : CORE_DEFAULT_DEADLINE_MS),
      golden: [
        { tool: "list_functions", arguments: {} },
        { tool: "search_functions", arguments: { query: "turn a title into a slug", response_level: "full" } },
        { tool: "get_function", arguments: { name: "fuzz_slugify", response_level: "full" } },
        { tool: "get_function_history", arguments: { name: "fuzz_slugify" } },
        {
          tool: "save_function",
          expensive: true,
          arguments: {
            name: "fuzz_slugify",
            code: SLUGIFY,
            description: "Turn a title into a URL slug: lower case, ASCII words joined by dashes.",
            tags: ["text", "urls"],
            test_cases: [{ input: { title: "Hello World" }, expected: "hello-world" }, "assert fuzz_slugify('A  B') == 'a-b'"],
          },
        },
      ],
      sanitize: withoutInstallableDependencies,
    };
  },
};
