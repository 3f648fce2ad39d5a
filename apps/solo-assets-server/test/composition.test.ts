/**
 * Composition, export and the clean-library checks (issue 19 items 2-4) through save_function,
 * get_function, delete_function and export_function on one in-process server whose project
 * root is a temporary folder: a chain of three functions (make_title_slug uses slug_words uses
 * normalize_space) typed and tested together in the sandbox, inlined into one module, exported
 * and imported by a real `python3`; deletes of used functions, copies and secrets refused.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Env } from "@local-mcp/core";
import { connectInProcess } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSoloAssetsConfig } from "../src/config.js";
import type { SoloAssetsConfig } from "../src/config.js";
import { createSoloAssetsServer, serverServicesOf } from "../src/server.js";
import { openSoloServices } from "../src/services.js";
import { saveView, step } from "./helpers/gate-views.js";
import { callTool, runSoloCli, tempLibrary, testEnv, testServices } from "./helpers/test-library.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import type { TempLibrary } from "./helpers/test-library.js";

const NORMALIZE_SPACE = `def normalize_space(text: str) -> str:
    """Collapse runs of whitespace into single spaces and trim the ends."""
    return " ".join(text.split())
`;

const SLUG_WORDS = `import re

from solo_lib import normalize_space


def slug_words(text: str) -> list[str]:
    """The lowercase words of a text, for building slugs."""
    return re.findall(r"[a-z0-9]+", normalize_space(text).lower())
`;

const MAKE_TITLE_SLUG = `from solo_lib import slug_words


def make_title_slug(title: str, separator: str = "-") -> str:
    """A URL slug for a title: its words joined by the separator."""
    return separator.join(slug_words(title))
`;

/** slug_words with other names, another docstring, annotations and formatting: the same code. */
const SLUG_WORDS_COPY = `import re
from solo_lib import normalize_space
def words_for_slug(s):
    '''Split a string into lowercase slug words.'''
    return re.findall(r'[a-z0-9]+', normalize_space(s).lower())
`;

const SPACE_DESCRIPTION = "Collapse runs of whitespace into single spaces and trim the ends.";

let library: TempLibrary;
let project: string;
let config: SoloAssetsConfig;
let client: Client;
let close: () => Promise<void>;

const call = (tool: string, args: Record<string, unknown>) => callTool(client, tool, args);
const save = async (args: Record<string, unknown>) =>
  saveView(await call("save_function", { description: "test function", response_level: "full", ...args }));
const errorOf = (body: Record<string, unknown>) => body.error as { code: string; message: string; details?: Record<string, unknown> };

function python(code: string, cwd: string): string {
  return execFileSync("python3", ["-c", code], { cwd, encoding: "utf8" }).trim();
}

beforeAll(async () => {
  library = tempLibrary();
  project = mkdtempSync(join(tmpdir(), "solo-export-project-"));
  config = loadSoloAssetsConfig(testEnv(library.dbPath) as Env, project);
  const services = openSoloServices(config);
  const connection = await connectInProcess(
    createSoloAssetsServer(services.config, { services: serverServicesOf(services), disposeServicesOnClose: true }),
  );
  client = connection.client;
  close = connection.close;
});

afterAll(async () => {
  await close?.();
  library?.remove();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("composition: c uses b uses a", () => {
  it("saves the chain, each typed and tested with the solo_lib package of its closure", async () => {
    const a = await save({
      name: "normalize_space",
      code: NORMALIZE_SPACE,
      description: SPACE_DESCRIPTION,
      test_cases: [{ input: { text: "  a \n b " }, expected: "a b" }],
    });
    expect(a.status).toBe("active");
    const b = await save({
      name: "slug_words",
      code: SLUG_WORDS,
      test_cases: [{ input: { text: " Hello,\tWorld " }, expected: ["hello", "world"] }],
    });
    expect(b.status, JSON.stringify(b.rejection)).toBe("active");
    const c = await save({
      name: "make_title_slug",
      code: MAKE_TITLE_SLUG,
      test_cases: [{ input: { title: "Déjà  Vu: The Film" }, expected: "d-j-vu-the-film" }, 'assert make_title_slug("A B", "_") == "a_b"'],
    });
    expect(c.status, JSON.stringify(c.rejection)).toBe("active");
    expect(step(c, "test").cases?.every((x) => x.passed)).toBe(true);
    const report = c.gate_report as unknown as { library: { imports: string[]; closure: { name: string; version: number }[] } };
    expect(report.library.imports).toEqual(["slug_words"]);
    expect(report.library.closure).toEqual([
      { name: "normalize_space", version: 1 },
      { name: "slug_words", version: 1 },
    ]);
  });

  it("refuses an import of a function the library does not have, naming it", async () => {
    const answer = await call("save_function", {
      name: "uses_nothing",
      code: "from solo_lib import no_such_function\n\n\ndef uses_nothing() -> int:\n    return no_such_function()\n",
      description: "imports a missing function",
    });
    expect(answer.isError).toBe(true);
    expect(errorOf(answer.body).code).toBe("NOT_FOUND");
    expect(errorOf(answer.body).message).toContain("'no_such_function'");
  });

  it("get_function inlines the dependencies into one module that runs", async () => {
    const plain = await call("get_function", { name: "make_title_slug" });
    expect(plain.body.code).toBe(MAKE_TITLE_SLUG);
    const inlined = await call("get_function", { name: "make_title_slug", inline_dependencies: true });
    expect(inlined.isError).toBe(false);
    const code = String(inlined.body.code);
    expect(inlined.body.inlined).toEqual(["normalize_space v1", "slug_words v1"]);
    expect(code).not.toContain("solo_lib");
    expect(code.indexOf("def normalize_space")).toBeLessThan(code.indexOf("def slug_words"));
    expect(code.indexOf("def slug_words")).toBeLessThan(code.indexOf("def make_title_slug"));
    const dir = mkdtempSync(join(tmpdir(), "solo-inline-"));
    try {
      writeFileSync(join(dir, "inlined.py"), code);
      expect(python("import inlined; print(inlined.make_title_slug('Hello  World Again'))", dir)).toBe("hello-world-again");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to delete a function others import, with the list of users", async () => {
    for (const [name, user] of [
      ["normalize_space", "slug_words"],
      ["slug_words", "make_title_slug"],
    ] as const) {
      const answer = await call("delete_function", { name });
      expect(answer.isError).toBe(true);
      expect(errorOf(answer.body).code).toBe("CONFLICT");
      expect(errorOf(answer.body).details?.users).toEqual([user]);
    }
    expect((await call("get_function", { name: "normalize_space" })).isError).toBe(false);
  });
});

describe("export into the project", () => {
  it("writes one module with the closure, importable by python, and updates it in place", async () => {
    const first = await call("export_function", { names: ["make_title_slug"], to: "src/vendor" });
    expect(first.isError, JSON.stringify(first.body)).toBe(false);
    expect(first.body.module).toBe(join("src", "vendor", "solo_lib.py"));
    expect(first.body.status).toBe("created");
    expect(first.body.changes).toEqual(["added normalize_space v1", "added slug_words v1", "added make_title_slug v1"]);
    const out = python(
      "import sys; sys.path.insert(0, 'src/vendor'); from solo_lib import make_title_slug, normalize_space; print(make_title_slug(normalize_space(' Big   News ')))",
      project,
    );
    expect(out).toBe("big-news");

    expect((await call("export_function", { names: ["make_title_slug"], to: "src/vendor" })).body.status).toBe("unchanged");

    // A new version of the deepest function: the re-export brings it in and says so.
    const v2 = await save({
      name: "normalize_space",
      code: NORMALIZE_SPACE.replace('" ".join(text.split())', '" ".join(text.split()).strip()'),
      description: SPACE_DESCRIPTION,
      test_cases: [{ input: { text: "  a \n b " }, expected: "a b" }],
    });
    expect(v2.status).toBe("active");
    const again = await call("export_function", { names: ["normalize_space"], to: "src/vendor", response_level: "standard" });
    expect(again.body.status).toBe("updated");
    expect(again.body.changes).toEqual(["updated normalize_space v1 → v2"]);
    expect(again.body.exported).toEqual(["make_title_slug", "normalize_space"]);
    expect(readFileSync(join(project, "src", "vendor", "solo_lib.py"), "utf8")).toContain("# functions: normalize_space v2, slug_words v1");
  });

  it("refuses folders outside the project and files it did not write", async () => {
    const outside = await call("export_function", { names: ["normalize_space"], to: "../elsewhere" });
    expect(errorOf(outside.body).code).toBe("FORBIDDEN");
    const absolute = await call("export_function", { names: ["normalize_space"], to: tmpdir() });
    expect(errorOf(absolute.body).code).toBe("FORBIDDEN");
    symlinkSync(tmpdir(), join(project, "link-out"));
    const linked = await call("export_function", { names: ["normalize_space"], to: "link-out/x" });
    expect(errorOf(linked.body).code).toBe("FORBIDDEN");
    mkdirSync(join(project, "mine"));
    writeFileSync(join(project, "mine", "solo_lib.py"), "# my own module\n");
    const theirs = await call("export_function", { names: ["normalize_space"], to: "mine" });
    expect(errorOf(theirs.body).code).toBe("CONFLICT");
    expect(readFileSync(join(project, "mine", "solo_lib.py"), "utf8")).toBe("# my own module\n");
    expect(existsSync(join(tmpdir(), "elsewhere", "solo_lib.py"))).toBe(false);
  });
});

describe("an older library", () => {
  it("without the composition tables opens here, gets them, and reindex fingerprints its functions", async () => {
    const older = tempLibrary();
    try {
      const before = testServices(older.dbPath);
      await commitUnchecked(before, { name: "old_one", code: "def old_one() -> int:\n    return 1\n", description: "one" });
      await before.library.db.write(async (session) => {
        await session.run("DROP TABLE function_uses");
        await session.run("DROP TABLE function_fingerprints");
      });
      await before.dispose();
      const after = testServices(older.dbPath);
      // Saved before the duplicate check: reindex gives it the fingerprint, and a copy is then refused.
      expect(await after.library.reindex()).toMatchObject({ fingerprinted: 1 });
      expect(await after.library.reindex()).toMatchObject({ fingerprinted: 0 });
      const copy = { name: "also_one", code: "def also_one() -> int:\n    return 1\n", description: "one" };
      const request = { ...copy, tags: [], dependencies: [], testCases: [], skipTests: true };
      await expect(after.library.save(request, { signal: new AbortController().signal })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining("'old_one'"),
      });
      expect(await after.library.delete("old_one")).toMatchObject({ name: "old_one" });
      await after.dispose();
    } finally {
      older.remove();
    }
  });
});

describe("the command line", () => {
  const cli = (...argv: string[]) => runSoloCli(() => config, ...argv);

  it("solo-assets export writes the module and get --inline prints one; outside the project is one FORBIDDEN line", async () => {
    const exported = await cli("export", "slug_words", "--to", "cli-out", "--module", "text_tools");
    expect(exported).toMatchObject({ code: 0, stderr: "" });
    expect(exported.stdout.split("\n")[0]).toBe(`${join("cli-out", "text_tools.py")}: created (normalize_space v2, slug_words v1)`);
    const run =
      "import sys; sys.path.insert(0, 'cli-out'); from text_tools import slug_words; print('-'.join(slug_words(' Hello   World ')))";
    expect(python(run, project)).toBe("hello-world");
    const inlined = await cli("get", "make_title_slug", "--inline");
    expect(inlined.code).toBe(0);
    expect(inlined.stdout).toContain("def normalize_space");
    expect(inlined.stdout).not.toContain("from solo_lib");
    const outside = await cli("export", "slug_words", "--to", "../elsewhere");
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/^solo-assets: FORBIDDEN: .*\n$/);
  });
});

describe("keeping the library clean", () => {
  it("refuses a copy under another name, naming the original", async () => {
    const answer = await call("save_function", { name: "words_for_slug", code: SLUG_WORDS_COPY, description: "slug words" });
    expect(answer.isError).toBe(true);
    expect(errorOf(answer.body).code).toBe("CONFLICT");
    expect(errorOf(answer.body).message).toContain("'slug_words'");
    expect((await call("get_function", { name: "words_for_slug" })).isError).toBe(true);
  });

  it("stores a function described like another with a warning naming it", async () => {
    const code = `import re


def squeeze_whitespace(text: str) -> str:
    """Collapse runs of whitespace into single spaces and trim the ends."""
    return re.sub(r"\\s+", " ", text).strip()
`;
    const saved = await save({ name: "squeeze_whitespace", code, description: SPACE_DESCRIPTION, skip_tests: true });
    expect(saved.status).toBe("unverified");
    const warnings = (saved as unknown as { warnings?: string[] }).warnings ?? [];
    expect(warnings.join(" ")).toMatch(/'squeeze_whitespace' is described much like 'normalize_space' \(similarity 0\.\d\d/);
  });

  it("refuses a key in the code with its line, storing nothing", async () => {
    const code = `import os

API_KEY = "sk-live-4eC39HqLyjWDarjtT1zdp7dc"


def charge(amount: int) -> str:
    return f"{amount} with {API_KEY[:3]} from {os.name}"
`;
    const answer = await call("save_function", { name: "charge", code, description: "charge an amount" });
    expect(answer.isError).toBe(true);
    expect(errorOf(answer.body).code).toBe("INVALID_INPUT");
    expect(errorOf(answer.body).message).toContain("line 3");
    expect(errorOf(answer.body).message).not.toContain("4eC39HqLyjWDarjtT1zdp7dc");
    expect((await call("get_function_history", { name: "charge" })).isError).toBe(true);
  });

  it("reformats an 89-column line instead of rejecting it, and flags dangerous calls without refusing", async () => {
    const code = `import subprocess


def run_listing(directory: str, pattern: str, include_hidden: bool, limit: int) -> str:
    """List a directory through the shell."""
    command = "ls -a " + directory if include_hidden else "ls " + directory + " | grep " + pattern
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout[:limit]
`;
    expect(Math.max(...code.split("\n").map((l) => l.length))).toBeGreaterThan(88);
    const saved = await save({ name: "run_listing", code, description: "list a directory", skip_tests: true });
    expect(saved.status).toBe("unverified");
    expect(saved.code_changed).toBe(true);
    const lint = step(saved, "lint") as ReturnType<typeof step> & {
      reformatted?: boolean;
      dangerous_calls?: { line: number; call: string }[];
    };
    expect(lint.status).toBe("passed");
    expect(lint.reformatted).toBe(true);
    expect(lint.summary).toContain("reformatted");
    expect(
      Math.max(
        ...String(saved.code)
          .split("\n")
          .map((l) => l.length),
      ),
    ).toBeLessThanOrEqual(88);
    expect(lint.dangerous_calls).toEqual([{ line: 7, call: "subprocess.run(shell=True)" }]);
    expect((saved as unknown as { warnings: string[] }).warnings.join(" ")).toContain("subprocess.run(shell=True)");
  });
});
