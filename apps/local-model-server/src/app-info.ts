/** The app's name, version and one-line summary, shared by both bins without loading the server. */
export const SERVER_NAME = "local-model-mcp";
export const SERVER_VERSION = "0.1.0";
export const SERVER_SUMMARY = "offload structured chores from Claude: extract, verify, generate, git, analyze";
/** The server's name in the MCP Registry (package.json `mcpName`, server.json `name`; tests/packaging checks all three). */
export const MCP_NAME = "io.github.local-mcp/local-model-server";
