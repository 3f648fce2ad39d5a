// Public surface of @local-mcp/core/python-env: a pinned Python environment a command makes for itself.
export { ensurePythonEnv } from "./python-env.js";
