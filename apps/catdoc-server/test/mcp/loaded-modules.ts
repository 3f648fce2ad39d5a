/**
 * What a process loaded, from the record of record-loads.mjs (preload it with
 * `node --import RECORDER` and RECORD_LOADS_FILE): the npm packages and the app's sources. A bundle
 * chunk counts as every source esbuild put in it (its `// path` comments), so the answer is the
 * same for the bundled and the unbundled build.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const RECORDER = fileURLToPath(new URL("./record-loads.mjs", import.meta.url));

export interface Loaded {
  /** npm packages, e.g. `yaml`, `@modelcontextprotocol/sdk`. */
  packages: Set<string>;
  /** The app's own sources, e.g. `src/domain/store/store.ts`. */
  sources: Set<string>;
  /** Bytes of the files read (bundle chunks and modules). */
  bytes: number;
}

/** The packages and app sources in the files a process loaded (a bundle chunk: what esbuild put in it). */
export function loadedSources(files: readonly string[]): Loaded {
  const packages = new Set<string>();
  const sources = new Set<string>();
  let bytes = 0;
  const addPath = (path: string) => {
    const inModules = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (inModules?.[1] !== undefined) packages.add(inModules[1]);
    // A bundled module's comment names its source; an unbundled build's file stands for its source.
    const inApp = /(?:^|\/)(src\/.+)$/.exec(path) ?? /\/apps\/catdoc-server\/dist\/(.+)\.js$/.exec(path);
    const source = inApp?.[1] === undefined ? undefined : inApp[1].startsWith("src/") ? inApp[1] : `src/${inApp[1]}.ts`;
    if (inModules === null && source !== undefined) sources.add(source);
  };
  for (const file of new Set(files)) {
    addPath(file);
    const text = readFileSync(file, "utf8");
    bytes += Buffer.byteLength(text);
    if (!file.includes("/dist/")) continue;
    // esbuild opens each module it bundled with a comment naming its path.
    for (const match of text.matchAll(/^\/\/ (\S+\.(?:[cm]?js|ts))$/gm)) addPath(match[1] ?? "");
  }
  return { packages, sources, bytes };
}

/** Reads the record a process wrote. */
export async function readLoaded(record: string): Promise<Loaded> {
  const files = (await readFile(record, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (line.startsWith("file:") ? fileURLToPath(line) : line));
  return loadedSources(files);
}
