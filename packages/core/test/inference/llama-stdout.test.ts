import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { writeTinyLlamaGguf } from "../../src/testing/index.js";

// node-llama-cpp's own logger writes to stdout, which would corrupt a stdio MCP server. Run a real
// load + generation in a child (the built engine) with llama.cpp's log at its most verbose, and
// check stdout stayed empty while the log reached stderr.
it("llama.cpp's log goes to the stderr logger, never stdout", async () => {
  const dir = await mkdtemp(join(tmpdir(), "llama-stdout-"));
  const model = join(dir, "tiny.gguf");
  await writeTinyLlamaGguf(model);
  const engineUrl = pathToFileURL(join(import.meta.dirname, "../../dist/inference/index.js")).href;
  const loggerUrl = pathToFileURL(join(import.meta.dirname, "../../dist/logger.js")).href;
  const script = `
    const { LlamaEngine } = await import(${JSON.stringify(engineUrl)});
    const { createLogger } = await import(${JSON.stringify(loggerUrl)});
    const engine = new LlamaEngine({ modelPath: ${JSON.stringify(model)}, threads: 1, contextSize: 256, gpu: "cpu", llamaLogLevel: "debug", deadlineMs: 60000 },
      { logger: createLogger({ name: "child", level: "debug" }) });
    const r = await engine.complete("hi", { maxTokens: 8 });
    process.stderr.write("generated " + r.tokensOut + "\\n");
    // a second engine in the same process (e.g. generation + embeddings) must not reroute the log
    const second = new LlamaEngine({ modelPath: ${JSON.stringify(model)}, threads: 1, contextSize: 256, gpu: "cpu", deadlineMs: 60000 },
      { logger: createLogger({ name: "second", level: "debug" }) });
    await second.embed(["one text", "another text"]);
    await second.complete("hi", { maxTokens: 4 });
    await engine.complete("again", { maxTokens: 4 });
    await second.dispose();
    await engine.dispose();
  `;
  // (60 s deadlines: a first call loads the model too, and 5 s was missed on a busy CI machine)
  // a file, not `-e`: node-llama-cpp forks a binding test with this process's execArgv
  const scriptPath = join(dir, "run.mjs");
  await writeFile(scriptPath, script);
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(process.execPath, [scriptPath], { timeout: 60_000 }, (error, out, err) => {
      if (error) reject(new Error(`${error.message}\n${err}`));
      else resolve({ stdout: out, stderr: err });
    });
  });
  await rm(dir, { recursive: true, force: true });
  expect(stderr).toMatch(/generated \d+/);
  // llama.cpp talked (at debug level it reports the model it loads) — through our logger
  expect(stderr).toMatch(/\[child:llama\.cpp\] .*llama/);
  expect(stdout).toBe("");
});
