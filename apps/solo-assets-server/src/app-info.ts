/**
 * Who this app is — its bins' `--help`/`--version` and its server's initialize answer. A leaf
 * module (package.json and a type only), so a bin shows its help without loading the server or
 * the configuration's schemas (config.ts parses the variables listed here).
 */
import type { AppInfo } from "@local-mcp/core/main";
import packageJson from "../package.json" with { type: "json" };

export const APP_INFO: AppInfo = {
  name: "solo-assets-mcp",
  title: "Solo assets",
  version: packageJson.version,
  summary: packageJson.description,
  env: [
    {
      name: "SOLO_DB_PATH",
      description: "the library's DuckDB file (default $XDG_DATA_HOME/local-mcp/solo-assets.duckdb, else ~/.local/share/…)",
    },
    { name: "SOLO_ENVS_DIR", description: "pooled Python test environments (default: solo-assets-envs next to the database)" },
    {
      name: "SOLO_EMBEDDER",
      description: "auto | local | gguf | openai | gemini (default auto: gemini when an API key is set, else the built-in local embedder)",
    },
    { name: "SOLO_EMBEDDING_MODEL", description: "Gemini or OpenAI-compatible embedding model (default gemini-embedding-001)" },
    {
      name: "SOLO_EMBEDDING_DIMENSION",
      description: "vector length (default 768 for Gemini, 512 for the local embedder; gguf/openai: the model's)",
    },
    { name: "SOLO_EMBEDDING_URL", description: "OpenAI-compatible embedding API, e.g. http://127.0.0.1:11434/v1 (SOLO_EMBEDDER=openai)" },
    { name: "SOLO_EMBEDDING_API_KEY", description: "Bearer token for SOLO_EMBEDDING_URL (optional)" },
    { name: "SOLO_EMBEDDING_MODEL_PATH", description: "GGUF embedding model (SOLO_EMBEDDER=gguf; needs node-llama-cpp)" },
    {
      name: "SOLO_CRITIC",
      description: "auto | off | gemini | local (default auto: gemini with a key, local with SOLO_CRITIC_MODEL_PATH, else off)",
    },
    { name: "SOLO_CRITIC_MODEL", description: "Gemini model of the critic (default gemma-3-27b-it)" },
    { name: "SOLO_CRITIC_MODEL_PATH", description: "GGUF model for the local critic" },
    { name: "SOLO_CRITIC_THRESHOLD", description: "critic pass mark, 0-100 (default 80)" },
    { name: "SOLO_CRITIC_THREADS", description: "CPU threads of the local critic (default: llama.cpp decides)" },
    { name: "SOLO_CRITIC_TIMEOUT_MS", description: "limit for one critic review (default 60000)" },
    { name: "SOLO_LINTER", description: "auto | ruff | ruff-wasm (default auto: the ruff binary when on PATH)" },
    { name: "SOLO_TYPER", description: "auto | mypy | pyright (default auto: mypy when installed, else pyright from npm)" },
    { name: "SOLO_PYTHON", description: "the Python that makes test environments (default python3)" },
    { name: "SOLO_INSTALLER", description: "auto | uv | pip (default auto: uv when on PATH)" },
    { name: "SOLO_INSTALL_TIMEOUT_MS", description: "limit for installing an environment's dependencies (default 300000)" },
    { name: "SOLO_TEST_TIMEOUT_MS", description: "limit for one test run; the whole process group is killed (default 30000)" },
    { name: "SOLO_TEST_MEMORY_MB", description: "memory limit of a whole test run, every process it starts together (default 1024)" },
    { name: "SOLO_TEST_MAX_PROCESSES", description: "process limit of a whole test run (default 128)" },
    {
      name: "SOLO_SANDBOX",
      description:
        "strict | weak: strict runs tests only in bubblewrap (Linux) or sandbox-exec (macOS); weak falls back to unshare or a plain process (default strict)",
    },
    { name: "SOLO_LOCK_TIMEOUT_MS", description: "how long to wait for the library file when other processes use it (default 30000)" },
    { name: "SOLO_LINE_LENGTH", description: "Ruff's line limit; a longer line is reformatted with ruff format (default 88)" },
    { name: "SOLO_DUPLICATES", description: "refuse | warn | off: a save with the same code as another function (default refuse)" },
    { name: "SOLO_SIMILAR", description: "refuse | warn | off: a save described like another function (default warn)" },
    { name: "SOLO_SIMILAR_THRESHOLD", description: "embedding similarity, 0-1, at which SOLO_SIMILAR applies (default 0.8)" },
    { name: "SOLO_GEMINI_BASE_URL", description: "another Gemini endpoint (a proxy or a test fake)" },
    { name: "GOOGLE_API_KEY", description: "Gemini API key (or GEMINI_API_KEY); enables Gemini embeddings and the Gemini critic" },
  ],
};
