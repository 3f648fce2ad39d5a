/**
 * The app's name, version and one-line summary: what both bins print for --help/--version and
 * what the server tells its clients. A leaf module (no imports), so a bin can load it without
 * loading the server.
 */
export const CATDOC_SERVER_NAME = "catdoc-mcp";
export const CATDOC_VERSION = "0.1.0";
export const CATDOC_SUMMARY = "CatDoc: documents as a category (objects, morphisms, functors, natural transformations)";
/** The server's name in the MCP Registry (package.json `mcpName`, server.json `name`; tests/packaging checks all three). */
export const MCP_NAME = "io.github.local-mcp/catdoc-server";
