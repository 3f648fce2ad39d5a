// Public surface of @local-mcp/core/python-env: a pinned Python environment a command makes for itself.
export { ensurePythonEnv, findPython, userCacheDir } from "./python-env.js";
export type { PythonEnv, PythonEnvOptions } from "./python-env.js";
