// The light entry for configuration (`@local-mcp/core/config`): reading the common settings and an
// app's own from the environment — zod and core's small modules only, no MCP SDK — for CLIs that
// load their configuration before every command. The main entry exports the same functions.
export { parseCommonConfig, parseEnvConfig } from "./config.js";
export type { CommonConfig, Env } from "./config.js";
