/**
 * Who this app is — its bins' `--help`/`--version` and its server's initialize answer. A leaf
 * module (package.json and a type only), so a bin shows its help without loading the server or
 * the configuration's schemas (config.ts parses the variables listed here).
 */
import type { AppInfo } from "@local-mcp/core/main";
import packageJson from "../package.json" with { type: "json" };

export const APP_INFO: AppInfo = {
  name: "mochi-mcp",
  title: "Mochi",
  version: packageJson.version,
  summary: packageJson.description,
  env: [
    { name: "MOCHI_MODEL", description: "base model GGUF (e.g. qwen2.5-coder-1.5b-instruct-q4_k_m.gguf); unset: catalog features only" },
    {
      name: "MOCHI_ADAPTER",
      description:
        "GGUF LoRA adapter(s) with optional scales: a.gguf or a.gguf:1,b.gguf:0.5; none: the stock base model (answers say adapter: null)",
    },
    { name: "MOCHI_CATALOG", description: "catalog written by `mochi index` (default .mochi/catalog.json)" },
    { name: "MOCHI_GPU", description: "auto | metal | cuda | vulkan | cpu (default auto)" },
    { name: "MOCHI_THREADS", description: "CPU threads for inference (default: llama.cpp decides)" },
    { name: "MOCHI_CONTEXT_SIZE", description: "context size in tokens (default 4096)" },
    {
      name: "MOCHI_CONTEXT",
      description: "on | off: completions and questions get signatures and conventions from the catalog (default on)",
    },
    { name: "MOCHI_REQUIRE_ADAPTER", description: "1: catalog features also answer NOT_READY until the adapter is loaded (default 0)" },
    { name: "MOCHI_MEMORY_BOUND", description: "L-memory-bound: refuse to load past this (default 32GB; binary units)" },
    { name: "MOCHI_DEADLINE_MS", description: "L-response-time: deadline of each tool call (default 5000)" },
    {
      name: "MOCHI_BACKEND_URL",
      description: "OpenAI-compatible server instead of MOCHI_MODEL (llama.cpp server, Ollama, vLLM), e.g. http://127.0.0.1:8080/v1",
    },
    { name: "MOCHI_BACKEND_MODEL", description: "model name on that server (required with MOCHI_BACKEND_URL)" },
    { name: "MOCHI_BACKEND_API_KEY", description: "bearer token for that server (never logged)" },
  ],
};
