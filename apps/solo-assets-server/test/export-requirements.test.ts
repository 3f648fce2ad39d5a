/**
 * Requirements from the code, not only the declared list: a function that imports a third-party
 * package no declared dependency provides is warned about at save (the import, its line and
 * what to declare), and its export lists the package in requirements.txt, marked as not
 * declared (src/domain/python/import-requirements.ts). One in-process server whose project root
 * is a temporary folder; the functions to export are stored without the gate
 * (helpers/unchecked-save.ts), and one real save with tests shows why the gate's run fails.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Env } from "@local-mcp/core";
import { connectInProcess } from "@local-mcp/core/testing";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSoloAssetsConfig } from "../src/config.js";
import type { SoloAssetsConfig } from "../src/config.js";
import { createSaveChecker } from "../src/domain/library/save-checks.js";
import { missingModuleReason, undeclaredImports } from "../src/domain/python/import-requirements.js";
import { analyzeSource } from "../src/domain/python/source-analysis.js";
import { createSoloAssetsServer, serverServicesOf } from "../src/server.js";
import { openSoloServices } from "../src/services.js";
import type { SoloServices } from "../src/services.js";
import { callTool, runSoloCli, tempLibrary, testEnv } from "./helpers/test-library.js";
import { notRunReport } from "./helpers/unchecked-save.js";
import type { TempLibrary } from "./helpers/test-library.js";

/** Imports yaml (line 3) without declaring it; json is the standard library. */
const READ_CONFIG = `import json

import yaml


def read_config(text: str) -> dict:
    """Parse a YAML (or JSON) configuration text into a dict."""
    data = yaml.safe_load(text)
    return data if isinstance(data, dict) else json.loads("{}")
`;

/** Composes read_config, imports yaml again (line 5) and the standard library's re. */
const CONFIG_KEYS = `import re

from solo_lib import read_config

import yaml


def config_keys(text: str) -> list[str]:
    """The top-level keys of a YAML configuration that look like identifiers."""
    data = read_config(text) or yaml.safe_load("{}")
    return [str(k) for k in data if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(k))]
`;

/** Imports yaml (line 1) without declaring it, with a test the sandbox runs without yaml. */
const YAML_LIST = `import yaml


def yaml_list(text: str) -> list[object]:
    """The items of a YAML list document, else an empty list."""
    data = yaml.safe_load(text)
    return list(data) if isinstance(data, list) else []
`;

/** Declares what it imports (python-dateutil for dateutil): nothing to warn about. */
const PARSE_WHEN = `from dateutil import parser


def parse_when(text: str) -> str:
    """An ISO 8601 timestamp for a date written in any common format."""
    return parser.parse(text).isoformat()
`;

let library: TempLibrary;
let project: string;
let config: SoloAssetsConfig;
let services: SoloServices;
let client: Client;
let close: () => Promise<void>;

const call = (tool: string, args: Record<string, unknown>) => callTool(client, tool, args);

/**
 * Stores a function without the gate (the export reads only the stored code and dependencies).
 * Library imports are recorded as a save records them; a function imported by another is stored
 * active, since composition only takes active ones.
 */
async function store(name: string, code: string, dependencies: string[], options: { imports?: string[]; imported?: boolean } = {}) {
  const imports = options.imports ?? [];
  const report = {
    ...notRunReport(code),
    ...(options.imported ? { status: "active" as const } : {}),
    ...(imports.length > 0 ? { library: { imports, closure: imports.map((i) => ({ name: i, version: 1 })) } } : {}),
  };
  await services.library.commit(
    { name, code, description: `test function ${name}`, tags: [], dependencies, testCases: [], skipTests: true },
    report,
    { signal: new AbortController().signal },
  );
}

const cli = (...argv: string[]) => runSoloCli(() => config, ...argv);

beforeAll(async () => {
  library = tempLibrary();
  project = mkdtempSync(join(tmpdir(), "solo-requirements-project-"));
  config = loadSoloAssetsConfig(testEnv(library.dbPath) as Env, project);
  services = openSoloServices(config);
  const connection = await connectInProcess(
    createSoloAssetsServer(services.config, { services: serverServicesOf(services), disposeServicesOnClose: true }),
  );
  client = connection.client;
  close = connection.close;
  await store("read_config", READ_CONFIG, [], { imported: true });
  await store("config_keys", CONFIG_KEYS, [], { imports: ["read_config"] });
  await store("parse_when", PARSE_WHEN, ["python-dateutil"]);
});

afterAll(async () => {
  await close?.();
  library?.remove();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("which imports are third-party, and which a dependency provides", () => {
  it("lists third-party packages with their first line; not the standard library, solo_lib, optional or TYPE_CHECKING imports", async () => {
    const code = [
      "from __future__ import annotations", // 1
      "import os, numpy.linalg as la", // 2
      "from typing import TYPE_CHECKING", // 3
      "from solo_lib import read_config", // 4
      "try:", // 5
      "    import ujson as fast_json", // 6
      "except ImportError:", // 7
      "    fast_json = None", // 8
      "if TYPE_CHECKING:", // 9
      "    import pandas", // 10
      "def f() -> None:", // 11
      "    from bs4 import BeautifulSoup", // 12
      "    import numpy", // 13
      "",
    ].join("\n");
    const analysis = await analyzeSource(config.python, config.toolEnv, code);
    if (!analysis.ok) throw new Error("the code should parse");
    expect(analysis.third_party_imports).toEqual([
      { module: "numpy", line: 2 },
      { module: "bs4", line: 12 },
    ]);
    expect(undeclaredImports(analysis.third_party_imports, ["beautifulsoup4>=4.12", "numpy"])).toEqual([]);
  });

  it("takes an import as provided by the same name, the table or a usual affix, else names what to declare", () => {
    const imports = ["yaml", "_yaml", "sentence_transformers", "slugify", "google", "cv2", "PIL", "requests", "_pytest"].map(
      (module, i) => ({
        module,
        line: i + 1,
      }),
    );
    expect(
      undeclaredImports(imports, ["PyYAML", "sentence-transformers", "python-slugify", "google-cloud-storage", "opencv-python-headless"]),
    ).toEqual([
      { module: "PIL", line: 7, distribution: "Pillow" },
      { module: "requests", line: 8, distribution: "requests" },
      { module: "_pytest", line: 9, distribution: "pytest" },
    ]);
  });
});

describe("save", () => {
  it("warns about an undeclared import, naming it, its line and what to declare; a declared one is not said", async () => {
    const check = createSaveChecker({
      db: services.library.db,
      python: config.python,
      env: config.toolEnv,
      policy: { duplicates: "off", similar: "off", similarThreshold: 1 },
    });
    const signal = new AbortController().signal;
    const undeclared = await check({ name: "read_config", code: READ_CONFIG, dependencies: [], embeddingText: "" }, signal);
    expect(undeclared.undeclared).toEqual([{ module: "yaml", line: 3, distribution: "PyYAML" }]);
    expect(undeclared.warnings).toEqual([
      expect.stringMatching(/^line 3: imports 'yaml', .*declare it in dependencies, e\.g\. PyYAML for yaml/),
    ]);
    const declared = await check({ name: "read_config", code: READ_CONFIG, dependencies: ["pyyaml>=6"], embeddingText: "" }, signal);
    expect(declared.warnings).toEqual([]);
    expect(declared.undeclared).toBeUndefined();
  });

  it("a save with tests says the run failed on the undeclared import and what to declare; the warning is stored with the version", async () => {
    const saved = await call("save_function", {
      name: "yaml_list",
      code: YAML_LIST,
      description: "Read the items of a YAML list document.",
      test_cases: ['assert yaml_list("- 1\\n- 2") == [1, 2]'],
      response_level: "minimal",
    });
    const body = saved.body as { status: string; rejection?: { message: string }; warnings?: string[] };
    expect(body.status).toBe("broken");
    expect(body.rejection?.message).toMatch(/'yaml' \(line 1\) is not installed where the tests run.*e\.g\. PyYAML for yaml/);
    expect(body.warnings).toEqual([expect.stringMatching(/^line 1: imports 'yaml'/)]);
    const stored = await call("get_function", { name: "yaml_list", response_level: "full" });
    expect((stored.body.gate_report as { warnings?: string[] }).warnings).toEqual(body.warnings);
  });

  it("explains only a missing module that is an undeclared import", () => {
    const yaml = [{ module: "yaml", line: 3, distribution: "PyYAML" }];
    expect(missingModuleReason("ModuleNotFoundError: No module named 'yaml.constructor'", yaml)).toMatch(/^'yaml' \(line 3\)/);
    expect(missingModuleReason("ModuleNotFoundError: No module named 'numpy'", yaml)).toBeUndefined();
    expect(missingModuleReason("AssertionError", yaml)).toBeUndefined();
  });
});

describe("export", () => {
  it("lists the undeclared package in requirements.txt once, marked, after the declared ones, and warns; stdlib and solo_lib are not listed", async () => {
    const answer = await call("export_function", { names: ["config_keys", "parse_when"], to: "vendor", response_level: "standard" });
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
    expect(readFileSync(join(project, "vendor", "requirements.txt"), "utf8")).toBe(
      "python-dateutil\nPyYAML  # imported as yaml; not declared in the library\n",
    );
    expect(answer.body.changes).toContain("requirements.txt: added python-dateutil, PyYAML (imported as yaml; not declared)");
    expect(answer.body.undeclared).toEqual([
      {
        distribution: "PyYAML",
        modules: ["yaml"],
        functions: [
          { name: "read_config", line: 3 },
          { name: "config_keys", line: 5 },
        ],
      },
    ]);
    expect(answer.body.warnings).toEqual([expect.stringMatching(/^read_config \(line 3\), config_keys \(line 5\) import yaml .*PyYAML/)]);
  });

  it("a re-export changes nothing and still warns; the CLI prints the warning", async () => {
    const before = readFileSync(join(project, "vendor", "requirements.txt"), "utf8");
    const again = await call("export_function", { names: ["config_keys"], to: "vendor" });
    expect(again.body).toMatchObject({ status: "unchanged", changes: [] });
    expect(again.body.warnings).toHaveLength(1);
    const printed = await cli("export", "config_keys", "--to", "vendor");
    expect(printed).toMatchObject({ code: 0, stderr: "" });
    expect(printed.stdout).toMatch(/\nwarning: read_config \(line 3\), config_keys \(line 5\) import yaml .*PyYAML/);
    expect(readFileSync(join(project, "vendor", "requirements.txt"), "utf8")).toBe(before);
  });

  it("a function whose imports are all declared writes no warning", async () => {
    const answer = await call("export_function", { names: ["parse_when"], to: "dates", response_level: "standard" });
    expect(answer.body.warnings).toBeUndefined();
    expect(answer.body.undeclared).toBeUndefined();
    expect(readFileSync(join(project, "dates", "requirements.txt"), "utf8")).toBe("python-dateutil\n");
  });
});
