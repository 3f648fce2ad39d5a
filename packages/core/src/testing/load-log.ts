import { readFileSync } from "node:fs";

/** `--import` argument that installs the module-load observer (see load-observer.ts). */
export const LOAD_OBSERVER_URL = new URL("./load-observer.js", import.meta.url).href;

/** The variable naming the file the observer appends to. */
export const LOAD_LOG_ENV = "LOCAL_MCP_LOAD_LOG";

/** Every module the observed process loaded: file paths and URLs, builtins as `node:…`, no duplicates. */
export function readLoadLog(file: string): string[] {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0) seen.add(line.slice(space + 1));
  }
  return [...seen];
}

/** Which of the named npm packages (e.g. `typescript`, `@duckdb/node-api`) the loaded modules come from. */
export function loadedPackages(modules: readonly string[], packages: readonly string[]): string[] {
  const paths = modules.map((m) => (m.startsWith("file://") ? decodeURIComponent(new URL(m).pathname) : m).replaceAll("\\", "/"));
  return packages.filter((name) => paths.some((p) => p.includes(`/node_modules/${name}/`)));
}
