import type { Llama } from "node-llama-cpp";
import { ToolError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { ResolvedLlamaEngineConfig } from "./engine-config.js";

/**
 * Loads llama.cpp through node-llama-cpp with our rules: prebuilt binaries only (never a source
 * build), llama.cpp's log to the stderr logger (its default logger writes to stdout, which would
 * corrupt a stdio MCP server), and the GPU chosen by config — `auto` lets node-llama-cpp pick
 * Metal on Apple Silicon, else CUDA, else Vulkan, else CPU.
 */
export async function loadLlamaRuntime(
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
