/** The app's name and version, shared by both bins without loading the server. */
export const MOCHI_VERSION = "0.1.0";
export const MOCHI_SUMMARY = "Mochi: a codebase's own small model as MCP (domain questions, code completion, pattern suggestions)";
