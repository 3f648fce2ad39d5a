/**
 * Name, version and one-line summary shared by both bins and the server definition. Literals, not
 * read from package.json: the bundled code runs from dist/chunks/, and a leaf module costs nothing
 * at start-up. tests/packaging checks that they match package.json (version, mcpName).
 */
export const APP_NAME = "solo-assets";
export const APP_SUMMARY = "a library of verified Python functions: quality gate, semantic search, dashboard";
export const APP_VERSION = "0.1.0";
/** The server's name in the MCP Registry (package.json `mcpName`, server.json `name`; tests/packaging checks all three). */
export const MCP_NAME = "io.github.local-mcp/solo-assets-server";
