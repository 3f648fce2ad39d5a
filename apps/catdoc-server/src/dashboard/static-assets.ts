/**
 * The page's files: index.html, app.css and app.js from `assets/` next to this module
 * (`src/dashboard/assets` in the sources; the build copies them to `dist/dashboard/assets`, see
 * assetsDirectory),
 * and cytoscape's browser bundle resolved from this package's dependencies. All are read
 * once when the dashboard starts.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export interface StaticAsset {
  body: Buffer;
  contentType: string;
}

const PAGE_FILES: Record<string, { file: string; contentType: string }> = {
  "/": { file: "index.html", contentType: "text/html; charset=utf-8" },
  "/assets/app.css": { file: "app.css", contentType: "text/css; charset=utf-8" },
  "/assets/app.js": { file: "app.js", contentType: "text/javascript; charset=utf-8" },
};

export const CYTOSCAPE_PATH = "/assets/cytoscape.min.js";

/** URL path → file, for every file the page needs. Fails with a clear message when one is missing. */
export async function loadStaticAssets(): Promise<Map<string, StaticAsset>> {
  const assets = new Map<string, StaticAsset>();
  const dir = assetsDirectory(import.meta.url);
  for (const [path, { file, contentType }] of Object.entries(PAGE_FILES)) {
    const location = fileURLToPath(new URL(file, dir));
    assets.set(path, { body: await readAsset(location), contentType });
  }
  const cytoscape = createRequire(import.meta.url).resolve("cytoscape/dist/cytoscape.min.js");
  assets.set(CYTOSCAPE_PATH, { body: await readAsset(cytoscape), contentType: "text/javascript; charset=utf-8" });
  return assets;
}

/**
 * `assets/` beside this module in the sources (vitest runs src/dashboard/static-assets.ts); in the
 * build, where scripts/bundle-app.mjs puts this code into dist/ or a chunk in dist/chunks/,
 * dist/dashboard/assets (copied there by the build).
 */
export function assetsDirectory(moduleUrl: string): URL {
  if (moduleUrl.endsWith(".ts")) return new URL("./assets/", moduleUrl);
  const dist = /\/dist\/chunks\/[^/]+$/.test(moduleUrl) ? new URL("../", moduleUrl) : new URL("./", moduleUrl);
  return new URL("dashboard/assets/", dist);
}

async function readAsset(location: string): Promise<Buffer> {
  try {
    return await readFile(location);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Dashboard asset missing (${location}): ${reason}. Rebuild the package (pnpm build) so dist/dashboard/assets exists.`);
  }
}
