import { createRequire } from "node:module";

/** Name, version and one-line summary shared by both bins and the server definition. */
export const APP_NAME = "solo-assets";
export const APP_SUMMARY = "a library of verified Python functions: quality gate, semantic search, dashboard";
export const APP_VERSION = (createRequire(import.meta.url)("../package.json") as { version: string }).version;
