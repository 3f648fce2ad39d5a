import type { Llama } from "node-llama-cpp";
import { ToolError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { ResolvedLlamaEngineConfig } from "./engine-config.js";

interface SharedRuntime {
  llama: Promise<Llama>;
  users: number;
}

/**
 * One llama.cpp runtime per process and GPU choice, shared by every engine. llama.cpp's log
 * callback is process-wide: with two runtimes, its lines bypassed both loggers and reached
 * stdout (measured), which would corrupt a stdio MCP server. The runtime is disposed when its
 * last engine lets go.
 */
const runtimes = new Map<string, SharedRuntime>();

export interface LlamaRuntimeLease {
  llama: Llama;
  release: () => Promise<void>;
}

/**
 * Loads llama.cpp through node-llama-cpp with our rules: prebuilt binaries only (never a source
 * build), llama.cpp's log to the stderr logger (its default logger writes to stdout), and the GPU
 * chosen by config — `auto` lets node-llama-cpp pick Metal on Apple Silicon, else CUDA, else
 * Vulkan, else CPU. The first engine's log level and logger serve the shared runtime.
 */
export async function acquireLlamaRuntime(
  gpu: ResolvedLlamaEngineConfig["gpu"],
  logLevel: ResolvedLlamaEngineConfig["llamaLogLevel"],
  logger: Logger,
): Promise<LlamaRuntimeLease> {
  let shared = runtimes.get(gpu);
  if (!shared) {
    shared = { llama: startRuntime(gpu, logLevel, logger), users: 0 };
    runtimes.set(gpu, shared);
    shared.llama.catch(() => runtimes.delete(gpu));
  }
  shared.users += 1;
  const entry = shared;
  let llama: Llama;
  try {
    llama = await entry.llama;
  } catch (error) {
    entry.users -= 1;
    throw error;
  }
  let released = false;
  return {
    llama,
    release: async () => {
      if (released) return;
      released = true;
      entry.users -= 1;
      if (entry.users === 0 && runtimes.get(gpu) === entry) {
        runtimes.delete(gpu);
        await llama.dispose();
      }
    },
  };
}

async function startRuntime(
  gpu: ResolvedLlamaEngineConfig["gpu"],
  logLevel: ResolvedLlamaEngineConfig["llamaLogLevel"],
  logger: Logger,
): Promise<Llama> {
  const { getLlama, LlamaLogLevel } = await import("node-llama-cpp");
  const llamaLog = logger.child("llama.cpp");
  try {
    return await getLlama({
      build: "never",
      gpu: gpu === "cpu" ? false : gpu,
      logLevel: LlamaLogLevel[logLevel],
      logger: (level, message) => {
        const line = message.trimEnd();
        if (line.length === 0) return;
        if (level === LlamaLogLevel.error || level === LlamaLogLevel.fatal) llamaLog.error(line);
        else if (level === LlamaLogLevel.warn) llamaLog.warn(line);
        else llamaLog.debug(line);
      },
    });
  } catch (error) {
    throw new ToolError("NOT_READY", `llama.cpp could not start with gpu=${gpu}: ${(error as Error).message}`, {
      recoverable: false,
      suggestion: gpu === "auto" || gpu === "cpu" ? "Reinstall node-llama-cpp for this platform." : "Use gpu=auto or gpu=cpu.",
    });
  }
}
