/** The app's name and version, shared by both bins without loading the server. */
export const MOCHI_VERSION = "0.1.0";
export const MOCHI_SUMMARY = "Mochi: a codebase's own small model as MCP (domain questions, code completion, pattern suggestions)";
/** The server's name in the MCP Registry (package.json `mcpName`, server.json `name`; tests/packaging checks all three). */
export const MCP_NAME = "io.github.local-mcp/mochi-server";
