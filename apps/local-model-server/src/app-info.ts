/**
 * Who this app is — its bins' `--help`/`--version` and its server's initialize answer. A leaf
 * module (package.json and a type only), so a bin shows its help without loading the server or
 * the configuration's schemas (config.ts parses the variables listed here).
 */
import { delimiter } from "node:path";
import type { AppInfo } from "@local-mcp/core/main";
import packageJson from "../package.json" with { type: "json" };

/** The config file read from the working directory when present. */
export const CONFIG_FILE_NAME = "local-model.config.json";

export const APP_INFO: AppInfo = {
  name: "local-model-mcp",
  title: "Local model",
  version: packageJson.version,
  summary: packageJson.description,
  env: [
    { name: "LOCAL_MODEL_CONFIG", description: `config file (default ./${CONFIG_FILE_NAME} when present)` },
    { name: "LOCAL_MODEL_MODEL_PATH", description: "GGUF model for the local engine (node-llama-cpp)" },
    { name: "LOCAL_MODEL_MODEL_THREADS", description: "CPU threads for the local engine (default: llama.cpp decides)" },
    { name: "LOCAL_MODEL_MODEL_CONTEXT_SIZE", description: "context size in tokens (default 8192)" },
    { name: "LOCAL_MODEL_MODEL_GPU", description: "auto | metal | cuda | vulkan | cpu (default auto)" },
    { name: "LOCAL_MODEL_MODEL_MAX_TOKENS", description: "most generated tokens per model call (default 1024)" },
    { name: "LOCAL_MODEL_MODEL_PRELOAD", description: "load the model at start instead of on the first model task (default false)" },
    { name: "LOCAL_MODEL_REMOTE_BASE_URL", description: "OpenAI-compatible endpoint instead of a GGUF, e.g. http://127.0.0.1:11434/v1" },
    { name: "LOCAL_MODEL_REMOTE_MODEL", description: "model name on the remote endpoint" },
    { name: "LOCAL_MODEL_REMOTE_API_KEY", description: "bearer token for the remote endpoint (never logged)" },
    { name: "LOCAL_MODEL_TIMEOUT_MS", description: "deadline of one tool call (default 30000)" },
    { name: "LOCAL_MODEL_MAX_RETRIES", description: "model retries after schema-invalid output (default 2)" },
    { name: "LOCAL_MODEL_CONFIDENCE_THRESHOLD", description: "below it a model result has success=false (default 0.7)" },
    { name: "LOCAL_MODEL_STRICT_SCHEMA", description: "data failing the caller's schema sets success=false (default true)" },
    {
      name: "LOCAL_MODEL_CONFIDENCE",
      description:
        "require | optional: refuse, or return with confidence null, answers whose server gave no token probabilities (default require)",
    },
    { name: "LOCAL_MODEL_TEMPLATES_DIR", description: "directory of custom .hbs templates" },
    { name: "LOCAL_MODEL_LOG_LEVEL", description: "stderr log level (overrides LOCAL_MCP_LOG_LEVEL)" },
    { name: "LOCAL_MODEL_TOKEN_TRACKING", description: "record stats (default true)" },
    {
      name: "LOCAL_MODEL_ROOTS",
      description: `directories paths must stay under, '${delimiter}'-separated (default: the working directory)`,
    },
    { name: "LOCAL_MODEL_MAX_FILE_BYTES", description: "size cap per file (default 1048576)" },
    { name: "LOCAL_MODEL_STATE_DIR", description: "where stats.json is kept (default $XDG_STATE_HOME/local-model)" },
    { name: "LOCAL_MODEL_REGEX_TIMEOUT_MS", description: "time bound of a regex search over one file (default 1000)" },
    { name: "LOCAL_MODEL_MAX_INPUT_CHARS", description: "most characters of a file put into a model prompt (default 16000)" },
  ],
};
