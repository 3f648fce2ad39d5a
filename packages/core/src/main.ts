// The light entry of @local-mcp/core for bins (`@local-mcp/core/main`): importing it loads only
// node builtins and tiny modules — no MCP SDK, zod or ajv. See server/run-main.ts for the contract.
export { runServerMain } from "./server/run-main.js";
export type { AppInfo, EnvVarDoc } from "./server/run-main.js";
