import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/index.js";
import { LlamaEngine } from "../../src/inference/index.js";
import { writeTinyLlamaGguf } from "../../src/testing/index.js";

// LlamaEngine's reusePrefix and stopWhen on the tiny generated FIM model, 1 thread.
let dir: string;
let reusing: LlamaEngine;
let clearing: LlamaEngine;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "engine-reuse-"));
  const modelPath = join(dir, "tiny-fim.gguf");
  await writeTinyLlamaGguf(modelPath, { fim: true });
  const config = { modelPath, threads: 1, contextSize: 1024, gpu: "cpu" as const };
  reusing = new LlamaEngine({ ...config, reusePrefix: true }, { logger: silentLogger });
  clearing = new LlamaEngine(config, { logger: silentLogger });
  await Promise.all([reusing.load(), clearing.load()]);
});

afterAll(async () => {
  await reusing?.dispose();
  await clearing?.dispose();
  await rm(dir, { recursive: true, force: true });
});

const FILE = "export function area(width: number, height: number): number {\n  return width * height;\n}\n\nexport const unit = ";

describe("LlamaEngine prompt reuse", () => {
  it("evaluates only what follows the prefix shared with the last call, and writes the same text as a cleared sequence", async () => {
    const reused: number[] = [];
    for (const at of [60, 64, 71, 80, 95]) {
      const prefix = FILE.slice(0, at);
      const suffix = FILE.slice(at);
      const a = await reusing.infill(prefix, suffix, { maxTokens: 12 });
      const b = await clearing.infill(prefix, suffix, { maxTokens: 12 });
      expect(a.text).toBe(b.text);
      expect(a.tokensOut).toBe(b.tokensOut);
      expect(b.tokensReused).toBeUndefined();
      reused.push(a.tokensReused ?? -1);
    }
    // The first call found nothing to keep; each later one kept the prompt up to near the cursor.
    expect(reused[0]).toBe(0);
    for (const n of reused.slice(1)) expect(n).toBeGreaterThan(30);
  });

  it("the same prompt again evaluates one token only", async () => {
    const first = await reusing.complete("const total = ", { maxTokens: 4 });
    const again = await reusing.complete("const total = ", { maxTokens: 4 });
    expect(again.text).toBe(first.text);
    expect(again.tokensReused).toBe(again.tokensIn - 1);
  });
});

describe("LlamaEngine stopWhen", () => {
  it("stops after the token with which the condition holds, keeping that text", async () => {
    const free = await clearing.complete("const total = ", { maxTokens: 24 });
    expect(free.tokensOut).toBe(24);
    const seen: string[] = [];
    const stopped = await clearing.complete("const total = ", {
      maxTokens: 24,
      stopWhen: (text) => {
        seen.push(text);
        return seen.length === 5;
      },
    });
    expect(stopped.stopReason).toBe("stop");
    expect(stopped.tokensOut).toBe(5);
    expect(stopped.text).toBe(seen[4]);
    expect(free.text.startsWith(stopped.text)).toBe(true);
  });
});
