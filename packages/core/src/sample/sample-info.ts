// Name and version of the sample server, in a module of its own so its bin's `--help` loads nothing else.
export const SAMPLE_SERVER_NAME = "local-mcp-sample";
export const SAMPLE_SERVER_VERSION = "0.1.0";
