import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { alpacaPrompt } from "@local-mcp/core/inference";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../src/domain/catalog/build-catalog.js";
import { scanRepository, type RepositoryScan } from "../src/domain/catalog/scan-repository.js";
import { buildDataset, type Dataset } from "../src/domain/dataset/build-dataset.js";
import { FILL_MARKER } from "../src/domain/dataset/code-samples.js";
import { SERVED_FILES } from "../src/domain/dataset/dataset-files.js";
import { completionPrompt, domainPrompt, SUFFIX_CHARS } from "../src/domain/model/prompts.js";
import { copyFixtureRepo } from "./helpers/sample-repo.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let repo: string;
let scan: RepositoryScan;
let dataset: Dataset;

beforeAll(async () => {
  repo = copyFixtureRepo();
  scan = await scanRepository(repo);
  dataset = buildDataset(scan, buildCatalog(scan), { seed: 7, validRatio: 0.2 });
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const all = () => [...dataset.train, ...dataset.valid];

describe("mochi dataset", () => {
  it("has every kind of sample, as Alpaca records of three strings", () => {
    expect(dataset.metadata.kinds.completion).toBeGreaterThan(0);
    expect(dataset.metadata.kinds.fim).toBeGreaterThan(0);
    expect(dataset.metadata.kinds.explanation).toBeGreaterThan(0);
    expect(dataset.metadata.kinds["pattern-qa"]).toBeGreaterThan(0);
    expect(dataset.metadata.kinds["convention-qa"]).toBeGreaterThan(0);
    for (const { record } of all()) {
      expect(Object.keys(record)).toEqual(["instruction", "input", "output"]);
      expect(record.instruction.length).toBeGreaterThan(0);
      expect(record.output.length).toBeGreaterThan(0);
    }
  });

  it("splits a chunk's completions at 30, 50 and 70% of its lines", () => {
    // createUserService spans lines 18-38 of src/user-service.ts: 21 lines.
    const file = scan.files.find((f) => f.path === "src/user-service.ts");
    const chunk = file?.facts.chunks.find((c) => c.symbol === "createUserService");
    expect(chunk).toMatchObject({ startLine: 18, endLine: 38 });
    const lines = (file?.text ?? "").split("\n").slice(17, 38);
    const completions = all().filter((s) => s.kind === "completion" && s.record.input.startsWith("export function createUserService"));
    expect(completions.map((s) => s.record.input.split("\n").length - 1)).toEqual([6, 11, 15]);
    for (const s of completions) expect(`${s.record.input}${s.record.output}`).toBe(lines.join("\n"));
    expect(completions[0]?.record.instruction).toBe("Complete the following TypeScript code from src/user-service.ts.");
  });

  it("makes fill-in-the-middle samples whose parts rebuild the chunk", () => {
    const fim = all().filter((s) => s.kind === "fim");
    expect(fim.length).toBeGreaterThan(5);
    for (const s of fim) {
      const [before, after] = s.record.input.split(`${FILL_MARKER}\n`) as [string, string];
      expect(before.endsWith("\n")).toBe(true);
      const rebuilt = `${before}${s.record.output}\n${after}`;
      expect(rebuilt.split("\n").length).toBe(s.record.input.split("\n").length + s.record.output.split("\n").length - 1);
    }
  });

  it("explains documented code with its doc comment, and answers pattern and convention questions from the catalog", () => {
    const explanation = all().find((s) => s.kind === "explanation" && s.record.instruction.includes("`load_rows`"));
    expect(explanation?.record.output).toBe("Reads the order rows from a JSON file (at most MAX_ROWS).");
    expect(explanation?.record.input).toMatch(/^def load_rows\(path: Path\)/);
    const pattern = all().find((s) => s.kind === "pattern-qa" && s.record.instruction.includes('"Custom error classes"'));
    expect(pattern?.record.output).toContain("Used in: scripts/report.py, src/errors.ts");
    expect(pattern?.record.output).toContain("export class AppError extends Error");
    const naming = all().find((s) => s.record.instruction === "How are functions named in the Python code of this codebase?");
    expect(naming?.record.output).toBe("snake_case (100% of 3). For example: load_rows, build_report, write_report.");
  });

  it("splits train/valid deterministically by seed, keeping each file's samples on one side", () => {
    const again = buildDataset(scan, buildCatalog(scan), { seed: 7, validRatio: 0.2 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(dataset));
    expect(dataset.valid.length).toBeGreaterThanOrEqual(0.2 * all().length);
    expect(dataset.train.length).toBeGreaterThan(dataset.valid.length);
    const trainGroups = new Set(dataset.train.map((s) => s.group));
    expect(dataset.valid.some((s) => trainGroups.has(s.group))).toBe(false);
    const other = buildDataset(scan, buildCatalog(scan), { seed: 8, validRatio: 0.2 });
    expect(other.valid.map((s) => s.group)).not.toEqual(dataset.valid.map((s) => s.group));
    expect(other.train.length + other.valid.length).toBe(all().length);
  });

  it("serves completion and FIM samples as complete_code's prompt at their cursor in the file, Q&A as domain_query's", () => {
    const texts = new Map(scan.files.map((f) => [f.path, f.text]));
    const code = all().filter((s) => s.kind === "completion" || s.kind === "fim");
    expect(code.length).toBeGreaterThan(10);
    for (const s of code) {
      const prompt = s.served.prompt;
      if (prompt.kind !== "infill") throw new Error(`${s.kind} sample served as ${prompt.kind}`);
      const text = texts.get(s.group) ?? "";
      // The fixture's files are shorter than the prompt's windows: prefix + answer + suffix is the file as it is.
      expect(text.length).toBeLessThan(SUFFIX_CHARS);
      expect(`${prompt.prefix}${s.served.completion}${prompt.suffix}`).toBe(text);
      expect(prompt).toEqual(completionPrompt({ prefix: prompt.prefix, suffix: prompt.suffix }));
      // The Alpaca record asks for the same lines, dedented.
      expect(s.served.completion.replace(/^\s+/gm, "")).toBe(s.record.output.replace(/^\s+/gm, ""));
    }
    for (const s of all().filter((x) => x.kind !== "completion" && x.kind !== "fim")) {
      expect(s.served).toEqual({
        prompt: domainPrompt({ instruction: s.record.instruction, input: s.record.input }),
        completion: s.record.output,
      });
    }
  });

  it("the CLI writes train.jsonl, valid.jsonl and dataset.json; --format completions uses the serving prompt", async () => {
    const out = join(repo, "out-alpaca");
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(process.execPath, [CLI, ...args], (e, stdout) => resolve({ code: e ? Number(e.code) : 0, stdout })),
      );
    const alpaca = await run(["dataset", repo, "--out", out, "--seed", "7", "--valid-ratio", "0.2", "--quiet"]);
    expect(alpaca.code).toBe(0);
    expect(alpaca.stdout).toContain(`Wrote ${dataset.train.length} train and ${dataset.valid.length} valid records (alpaca;`);
    const lines = readFileSync(join(out, "train.jsonl"), "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(dataset.train.length);
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(dataset.train.map((s) => s.record));
    const served = readFileSync(join(out, SERVED_FILES.valid), "utf8").trimEnd().split("\n");
    expect(served.map((l) => JSON.parse(l) as unknown)).toEqual(
      dataset.valid.map((s) => ({ kind: s.kind, group: s.group, prompt: s.served.prompt, completion: s.served.completion })),
    );
    expect(JSON.parse(readFileSync(join(out, "dataset.json"), "utf8"))).toMatchObject({
      seed: 7,
      validRatio: 0.2,
      recordFormat: "alpaca",
      servedFormat: "mochi-served/1",
      records: dataset.metadata.records,
    });

    const mlx = join(repo, "out-mlx");
    expect((await run(["dataset", repo, "--out", mlx, "--seed", "7", "--valid-ratio", "0.2", "--format", "completions", "-q"])).code).toBe(
      0,
    );
    const first = JSON.parse(readFileSync(join(mlx, "train.jsonl"), "utf8").split("\n")[0] as string) as {
      prompt: string;
      completion: string;
    };
    const record = dataset.train[0]?.record;
    expect(first).toEqual({ prompt: alpacaPrompt(record?.instruction ?? "", record?.input), completion: record?.output });
    expect((await run(["dataset", repo, "--format", "csv"])).code).toBe(2);
  });
});
