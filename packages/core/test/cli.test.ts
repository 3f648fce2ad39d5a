import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGgufHeader, validateLoraAdapter } from "../src/inference/index.js";
import { writeTinyLlamaGguf, writeTinyLoraGguf, writeTinyPeftAdapter } from "../src/testing/index.js";

const CLI = fileURLToPath(new URL("../dist/cli/local-mcp.js", import.meta.url));
const run = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });

describe("the local-mcp CLI", () => {
  let dir: string;
  let model: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "local-mcp-cli-"));
    model = join(dir, "tiny.gguf");
    await writeTinyLlamaGguf(model);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("adapter convert writes a GGUF LoRA that fits the base model", async () => {
    const peft = join(dir, "peft");
    await writeTinyPeftAdapter(peft);
    const out = join(dir, "adapter.gguf");
    const result = await run(["adapter", "convert", peft, "--out", out, "--base", model]);
    expect(result.stderr).not.toMatch(/ERROR|WARN/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/wrote .*adapter\.gguf: llama LoRA, rank \d+.*checked against the base model/);
    expect(validateLoraAdapter(await readGgufHeader(out), await readGgufHeader(model))).toEqual([]);
  });

  it("adapter convert refuses a DoRA adapter with a clear message and exit 1", async () => {
    const peft = join(dir, "dora");
    await writeTinyPeftAdapter(peft, { useDora: true });
    const result = await run(["adapter", "convert", peft, "--out", join(dir, "dora.gguf"), "--base", model]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/DoRA/i);
  });

  it("gguf inspect shows a model's memory at a context size", async () => {
    const result = await run(["gguf", "inspect", model, "--context", "512"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/model \(llama\)/);
    expect(result.stdout).toMatch(/memory at context 512: .*MiB/);
    expect(result.stdout).toMatch(/no problems found/);
  });

  it("gguf inspect names the problem of a broken adapter and exits 1", async () => {
    const bad = join(dir, "bad.gguf");
    await writeTinyLoraGguf(bad, { defect: "alpha-float64" });
    const result = await run(["gguf", "inspect", bad, "--base", model, "--json"]);
    expect(result.code).toBe(1);
    const inspection = JSON.parse(result.stdout) as { kind: string; problems: { problem: string }[] };
    expect(inspection.kind).toBe("adapter");
    expect(inspection.problems[0]?.problem).toMatch(/alpha/);
  });

  it("run loads a GGUF with a LoRA adapter and prints the text, with figures on stderr", async () => {
    const lora = join(dir, "run-lora.gguf");
    await writeTinyLoraGguf(lora);
    const base = await run(["run", "--model", model, "--gpu", "cpu", "--threads", "1", "--context", "256", "--max-tokens", "12", "Once"]);
    const adapted = await run([
      "run",
      "--model",
      model,
      "--lora",
      `${lora}:1`,
      "--gpu",
      "cpu",
      "--threads",
      "1",
      "--context",
      "256",
      "--max-tokens",
      "12",
      "Once",
    ]);
    expect(base.code).toBe(0);
    expect(adapted.code).toBe(0);
    expect(adapted.stderr).toMatch(/loading .*tiny\.gguf: 100%/);
    expect(adapted.stderr).toMatch(/\[completion\] \d+ tokens in, \d+ out, .*confidence/);
    expect(adapted.stdout).not.toBe(base.stdout);
  });

  it("run refuses a broken adapter with NOT_READY and exit 1", async () => {
    const bad = join(dir, "run-bad.gguf");
    await writeTinyLoraGguf(bad, { defect: "missing-alpha" });
    const result = await run(["run", "--model", model, "--lora", bad, "--gpu", "cpu", "hi"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/NOT_READY: .*run-bad\.gguf/);
  });

  it("bad usage exits 2 and --help tells the commands", async () => {
    expect((await run(["adapter", "convert"])).code).toBe(2);
    expect((await run(["frobnicate"])).code).toBe(2);
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("adapter convert");
    expect(help.stdout).toContain("gguf inspect");
    expect(help.stdout).toContain("local-mcp run --model");
    expect((await run(["run", "--model", model, "--mode", "poem", "x"])).code).toBe(2);
  });
});
