// Who the sample server is, in a module of its own so its bin's `--help` loads nothing else.
import type { AppInfo } from "../server/run-main.js";

export const SAMPLE_APP_INFO: AppInfo = {
  name: "local-mcp-sample",
  title: "Sample",
  version: "0.1.0",
  summary: "the sample server of the local-mcp core (echo, wait)",
  env: [],
};
