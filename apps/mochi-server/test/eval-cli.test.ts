/**
 * `mochi eval` as a user meets it through the built bin: bad usage is one coded line on stderr
 * and exit 2 (nothing on stdout, nothing recorded), `--help` names every option, and a run on
 * the tiny model prints JSON with the base and the adapter.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanRepository } from "../src/domain/catalog/scan-repository.js";
import { buildDataset } from "../src/domain/dataset/build-dataset.js";
import { writeDataset } from "../src/domain/dataset/dataset-files.js";
import type { EvalRecord } from "../src/domain/eval/eval-record.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { TEST_ENV, writeTinyModelFiles, type TinyModelFiles } from "./helpers/tiny-model.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let model: TinyModelFiles;
let repo: string;
let empty: string;

beforeAll(async () => {
  model = await writeTinyModelFiles();
  repo = copyFixtureRepo();
  const catalog = await indexInto(repo);
  writeDataset(join(repo, ".mochi", "dataset"), buildDataset(await scanRepository(repo), catalog, { seed: 42, validRatio: 0.3 }), "alpaca");
  empty = mkdtempSync(join(tmpdir(), "mochi-eval-empty-"));
  writeFileSync(join(empty, "dataset.json"), "{ not json");
});

afterAll(() => {
  for (const dir of [model.dir, repo, empty]) rmSync(dir, { recursive: true, force: true });
});

function run(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("MOCHI_")));
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: repo, env: { ...clean, ...TEST_ENV, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe("mochi eval: usage", () => {
  it("bad usage is one coded line on stderr, exit 2, nothing on stdout and nothing recorded", async () => {
    const withModel = { MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora };
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [["eval", "--format", "xml"], withModel, /^mochi: INVALID_INPUT: --format must be table or json, got 'xml'\n$/],
      [["eval", "--limit", "0"], withModel, /^mochi: INVALID_INPUT: --limit must be an integer ≥ 1, got '0'\n$/],
      [["eval", "--context", "maybe"], withModel, /^mochi: INVALID_INPUT: --context must be on or off, got 'maybe'\n$/],
      [["eval"], {}, /^mochi: INVALID_INPUT: no base model: set MOCHI_MODEL or give --model <base\.gguf>\n$/],
      [["eval", join(repo, "nope")], withModel, /^mochi: NOT_FOUND: \S+nope does not exist; give the root directory of a repository\n$/],
      [
        ["eval", "--model", join(repo, "missing.gguf")],
        {},
        /^mochi: NOT_FOUND: \S+missing\.gguf does not exist; give the base model GGUF\n$/,
      ],
      [["eval", "--adapter", ":2"], withModel, /^mochi: INVALID_INPUT: --adapter ':2': adapter entry ':2' has no path/],
      [
        ["eval", empty, "--quiet"],
        withModel,
        /^mochi: NOT_FOUND: no dataset at \S+ \(dataset\.json\): run `mochi dataset \S+` first, or give --files\n$/,
      ],
      [["eval", "--files", "src/nope.ts"], withModel, /^mochi: NOT_FOUND: src\/nope\.ts is not a file\n$/],
      [
        ["eval", "--dataset", empty],
        withModel,
        /^mochi: INVALID_INPUT: \S+dataset\.json cannot be read as JSON \(.+\): write it again with `mochi dataset`\n$/,
      ],
    ];
    const results = await Promise.all(cases.map(([args, env]) => run(args, env)));
    cases.forEach(([args, , stderr], i) => {
      const result = results[i];
      expect(result?.code, args.join(" ")).toBe(2);
      expect(result?.stdout, args.join(" ")).toBe("");
      expect(result?.stderr, args.join(" ")).toMatch(stderr);
    });
    expect(existsSync(join(repo, ".mochi", "eval"))).toBe(false);
  }, 90_000);

  it("--help lists the options, the default split and where the result is recorded", async () => {
    const result = await run(["eval", "--help"]);
    expect(result.code).toBe(0);
    for (const option of ["--files", "--dataset", "--model", "--adapter", "--seed", "--limit", "--context", "--format", "--quiet"]) {
      expect(result.stdout).toContain(option);
    }
    expect(result.stdout).toContain("validation split");
    expect(result.stdout).toContain(".mochi/eval/last.json");
  });

  it("prints JSON with the base and the adapter, metrics and interval (--format json)", async () => {
    const result = await run(["eval", "--limit", "3", "--format", "json", "--quiet"], {
      MOCHI_MODEL: model.fimModel,
      MOCHI_ADAPTER: model.lora,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as EvalRecord;
    expect(record.models.map((m) => m.label)).toEqual(["base", "tiny-lora.gguf@1"]);
    expect(record.lift[0]?.similarity.low).toBeLessThanOrEqual(record.lift[0]?.similarity.high ?? Number.NaN);
    expect(existsSync(join(repo, ".mochi", "eval", "last.json"))).toBe(true);
  }, 60_000);
});
