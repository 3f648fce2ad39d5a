import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@local-mcp/core";
import { connectInProcess, writeTinyLlamaGguf, writeTinyLoraGguf, type InProcessConnection } from "@local-mcp/core/testing";
import { loadMochiConfig } from "../../src/config.js";
import { MochiRuntime } from "../../src/runtime.js";
import { createMochiServer } from "../../src/server.js";

export interface TinyModelFiles {
  dir: string;
  /** Tiny llama with fill-in-the-middle tokens. */
  fimModel: string;
  /** Tiny llama without them. */
  plainModel: string;
  /** A LoRA that fits both (it targets the block weights only). */
  lora: string;
}

/** The tiny generated GGUF models and LoRA (core/testing), in a temporary directory. */
export async function writeTinyModelFiles(): Promise<TinyModelFiles> {
  const dir = mkdtempSync(join(tmpdir(), "mochi-model-"));
  const files = { dir, fimModel: join(dir, "tiny-fim.gguf"), plainModel: join(dir, "tiny.gguf"), lora: join(dir, "tiny-lora.gguf") };
  await writeTinyLlamaGguf(files.fimModel, { fim: true });
  await writeTinyLlamaGguf(files.plainModel);
  await writeTinyLoraGguf(files.lora);
  return files;
}

/** Settings every test runtime shares: CPU, one thread (fast on tiny models), a quiet logger. */
export const TEST_ENV = { MOCHI_GPU: "cpu", MOCHI_THREADS: "1", MOCHI_CONTEXT_SIZE: "2048", LOCAL_MCP_LOG_LEVEL: "silent" } as const;

/** A runtime from environment variables, as mochi-mcp would build it; started (model loaded) when asked. */
export async function startRuntime(env: Record<string, string>, cwd: string): Promise<MochiRuntime> {
  const runtime = new MochiRuntime(loadMochiConfig({ ...TEST_ENV, ...env }, cwd), { logger: silentLogger });
  await runtime.start();
  return runtime;
}

export interface ConnectedMochi {
  runtime: MochiRuntime;
  connection: InProcessConnection;
  /** Closes the connection, then the runtime. */
  close(): Promise<void>;
}

/** A started runtime (startRuntime) served to a real SDK client in this process. */
export async function connectMochi(env: Record<string, string>, cwd: string): Promise<ConnectedMochi> {
  const runtime = await startRuntime(env, cwd);
  const connection = await connectInProcess(createMochiServer(runtime.config, { runtime }));
  return {
    runtime,
    connection,
    close: async () => {
      await connection.close();
      await runtime.dispose();
    },
  };
}
