#!/usr/bin/env node
// Build step of every app (`pnpm build` in apps/<name>): bundles src/*.ts straight into dist/ with
// esbuild (issue #14). One bundle per app, ESM for Node 20, code splitting: each bin is one small
// entry file, code the entries share and every dynamic `import()` land in dist/chunks/, so a
// module the server needs only for some tool call is read only when that call comes.
//
// Bundled: @local-mcp/core, the MCP SDK, zod and every small pure-JS library. Left external: the
// app's package.json `dependencies` — exactly what the published package installs: native addons
// and large libraries that read their own files at run time (node-llama-cpp, @duckdb/node-api,
// @google/genai, typescript, pyright, @astral-sh/ruff-wasm-nodejs, cytoscape's browser file).
// The build fails when the bundle imports one of those without the app depending on it, or pulls
// one of them into the bundle.
//
// Usage (from an app directory): node ../../scripts/bundle-app.mjs [--metafile FILE]
// (FILE gets esbuild's metafile, for https://esbuild.github.io/analyze/ ).
import { chmodSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** Never bundled, whatever an app lists: native addons and large libraries (issue #14). */
export const NEVER_BUNDLED = [
  "node-llama-cpp",
  "@duckdb/node-api",
  "@google/genai",
  "playwright-core",
  "typescript",
  "pyright",
  "@astral-sh/ruff-wasm-nodejs",
  // core's code-analysis: the runtime and the grammars read their .wasm files from their packages.
  "web-tree-sitter",
  "@vscode/tree-sitter-wasm",
];

/**
 * Per app: `bins` are the published entry points (they keep their shebang and get the execute
 * bit), `workers` are files Node starts on their own (worker threads), `internal` are modules the
 * app's tests and bench/ load from dist/ directly (kept at their source paths; shared code still
 * lives in the chunks, so they share module state with the bins). They ship too: where the app
 * `import()`s one of them, esbuild points the import at that entry's file, not at a chunk
 * (solo-assets' services.js). `copy` are non-code files the
 * code reads next to itself, `unreached` are never-bundled libraries that code in the bundle can
 * import but that the app never runs (so it need not install them). Optional peer dependencies
 * (solo-assets' local critic and node-llama-cpp) are imported only when the user installed them.
 */
export const APPS = {
  "@local-mcp/catdoc-server": {
    bins: ["src/mcp.ts", "src/cli.ts"],
    workers: [],
    internal: ["src/domain/index.ts", "src/testing/generate-project.ts"],
    copy: [["src/dashboard/assets", "dist/dashboard/assets"]],
  },
  "@local-mcp/local-model-server": {
    bins: ["src/mcp.ts", "src/cli.ts"],
    workers: ["src/domain/parsing/parser-worker.ts"],
    internal: ["src/config.ts", "src/server.ts", "src/domain/tokens.ts", "src/domain/stats/stats-store.ts"],
    copy: [],
  },
  "@local-mcp/mochi-server": {
    bins: ["src/mcp.ts", "src/cli.ts"],
    workers: [],
    internal: [
      "src/domain/catalog/scan-repository.ts",
      "src/domain/catalog/build-catalog.ts",
      "src/domain/context/repository-context.ts",
      "src/domain/eval/eval-cases.ts",
      "src/domain/eval/eval-run.ts",
    ],
    copy: [],
    // core's createEmbedder can build a Gemini embedder; mochi only ever asks for the local one.
    unreached: ["@google/genai"],
  },
  "@local-mcp/solo-assets-server": {
    bins: ["src/mcp.ts", "src/cli.ts"],
    workers: [],
    internal: [
      "src/config.ts",
      "src/services.ts",
      "src/domain/storage/library-database.ts",
      "src/domain/storage/schema.ts",
      "src/domain/library/function-repository.ts",
      "src/domain/search/keyword-terms.ts",
      "src/domain/search/search-index.ts",
      "src/domain/search/index-snapshot.ts",
      "src/domain/search/rank-fusion.ts",
    ],
    copy: [],
  },
};

/** The package a bare import specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * zod 4 re-exports every locale (`export * as locales`, ~50 languages, about 250 KB of source) from
 * its main module, and esbuild cannot drop a namespace re-export. The servers only ever use zod's
 * default English messages (zod loads `en` itself; no other locale is ever configured), so the
 * locales index resolves to a module that re-exports `en` alone. Measured on local-model-server:
 * 2,238 → 1,881 KB of bundle, and its initialize from 0.95× to 0.79× server-memory's time.
 * BUNDLE_ALL_ZOD_LOCALES=1 builds with them, to measure again.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: "js",
    }));
  },
};

/**
 * The SDK's server imports its Ajv provider statically, through its Node shim
 * (`@modelcontextprotocol/server/_shims` → dist/shimsNode.mjs: `DefaultJsonSchemaValidator`),
 * and builds it only when no `jsonSchemaValidator` is given. core's createServer always gives its
 * zod-based one (packages/core/src/server/json-schema-validator.ts), so in a bundle the provider —
 * and ajv with ajv-formats, ~275 KB evaluated at every start — is dead weight. The shim resolves
 * to one that fails loudly if anything ever constructs the default. An app's own `import("ajv")`
 * (local-model's schema check) is untouched. Measured with SDK 1.x on local-model-server: 1.42 →
 * 1.13 MB of JavaScript loaded before initialize, 0.69× → 0.65× server-memory's time.
 */
const sdkWithoutAjv = {
  name: "sdk-without-ajv",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]shimsNode\.mjs$/ }, () => ({
      contents:
        'import process from "node:process";\n' +
        "export class DefaultJsonSchemaValidator {\n" +
        "  constructor() {\n" +
        "    throw new Error(\"bundle: the SDK's Ajv validator is not bundled; pass jsonSchemaValidator (core's createServer does)\");\n" +
        "  }\n" +
        "}\n" +
        "export { process };\n",
      loader: "js",
    }));
  },
};

/**
 * Next to an app's package.json (not in dist/, so it is not published): which modules each output
 * file holds, for core/testing's load observer (loadedModules), which names the packages and
 * sources a process loaded. Keys are paths inside dist/; values are `node_modules/<package>/` once
 * per package, and the app's and core's own files (`src/tools/<tool>.ts`, `packages/core/dist/…`).
 */
export const BUNDLE_INPUTS = "bundle-inputs.json";

export function chunkInputs(meta) {
  const map = {};
  for (const [output, { inputs }] of Object.entries(meta.outputs)) {
    if (!output.endsWith(".js")) continue;
    const names = new Set();
    for (const input of Object.keys(inputs)) {
      const at = input.lastIndexOf("node_modules/");
      if (at >= 0) names.add(`node_modules/${packageOf(input.slice(at + "node_modules/".length))}/`);
      else names.add(input.replace(/^(\.\.\/)+/, ""));
    }
    map[output.replace(/^dist\//, "")] = [...names].sort();
  }
  return map;
}

/** Bundles the app in `appDir` into `appDir/dist`. Returns the esbuild metafile. */
export async function bundleApp(appDir, { metafile } = {}) {
  const pkg = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8"));
  const app = APPS[pkg.name];
  if (!app) throw new Error(`bundle-app: no bundle configuration for ${pkg.name} in scripts/bundle-app.mjs`);
  const dependencies = Object.keys(pkg.dependencies ?? {});
  const runtimeImports = new Set([...dependencies, ...Object.keys(pkg.peerDependencies ?? {}), ...(app.unreached ?? [])]);
  const dist = join(appDir, "dist");
  rmSync(dist, { recursive: true, force: true });

  const result = await build({
    absWorkingDir: appDir,
    entryPoints: [...app.bins, ...app.workers, ...app.internal],
    outdir: "dist",
    outbase: "src",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    chunkNames: "chunks/[name]-[hash]",
    // Dependencies stay imports resolved from node_modules at run time; so do the never-bundled
    // libraries even where an app reaches them only through core (the check below insists that the
    // app then depends on them).
    external: [...new Set([...dependencies, ...NEVER_BUNDLED])].flatMap((name) => [name, `${name}/*`]),
    // CommonJS libraries inside the bundle (ajv, handlebars…) call `require` for Node built-ins.
    banner: {
      js: 'import { createRequire as __bundleCreateRequire } from "node:module";\nconst require = __bundleCreateRequire(import.meta.url);',
    },
    plugins: [sdkWithoutAjv, ...(process.env.BUNDLE_ALL_ZOD_LOCALES ? [] : [zodEnglishOnly])],
    // Minified (whitespace and syntax, not identifiers: names stay readable in stack traces).
    // V8 scans every byte of a module before it runs, and the start-up path loads ~1.2 MB of
    // bundled SDK and zod: minified mochi-mcp answers initialize in 0.72× server-memory's time
    // against 0.80× unminified (SDK v2, 2026-11-25). Minifying strips esbuild's `// path`
    // comments, so what each chunk holds is written to bundle-inputs.json (below) for the load
    // observer of the start-up tests. BUNDLE_MINIFY=0 builds unminified, to measure again.
    ...(process.env.BUNDLE_MINIFY === "0" ? {} : { minifyWhitespace: true, minifySyntax: true }),
    metafile: true,
    logLevel: "warning",
    logOverride: { "unsupported-require-call": "silent" },
  });

  // Every import left external must be a dependency the published package installs.
  const missing = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external || imported.path.startsWith("node:")) continue;
      const name = packageOf(imported.path);
      if (!isBuiltin(name) && !runtimeImports.has(name)) missing.add(name);
    }
  }
  if (missing.size > 0)
    throw new Error(`bundle-app: ${pkg.name} imports ${[...missing].join(", ")} at run time but does not list it in dependencies`);
  const bundledHeavy = Object.keys(result.metafile.inputs).filter((input) =>
    NEVER_BUNDLED.some((name) => input.includes(`/node_modules/${name}/`)),
  );
  if (bundledHeavy.length > 0) throw new Error(`bundle-app: ${pkg.name} bundled ${bundledHeavy[0]}; it must stay a dependency`);

  for (const bin of app.bins) chmodSync(join(dist, bin.replace(/^src\//, "").replace(/\.ts$/, ".js")), 0o755);
  for (const [from, to] of app.copy) {
    if (!existsSync(join(appDir, from))) throw new Error(`bundle-app: ${from} is missing`);
    cpSync(join(appDir, from), join(appDir, to), { recursive: true });
  }
  writeFileSync(join(appDir, BUNDLE_INPUTS), `${JSON.stringify(chunkInputs(result.metafile))}\n`);
  if (metafile) writeFileSync(metafile, JSON.stringify(result.metafile));
  return result.metafile;
}

const BUILTINS = new Set((await import("node:module")).builtinModules);
function isBuiltin(name) {
  return BUILTINS.has(name);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const at = process.argv.indexOf("--metafile");
    const meta = await bundleApp(process.cwd(), { metafile: at > 0 ? process.argv[at + 1] : undefined });
    const sizes = Object.entries(meta.outputs).reduce((sum, [, output]) => sum + output.bytes, 0);
    process.stdout.write(`bundled ${Object.keys(meta.outputs).length} files, ${(sizes / 1024).toFixed(0)} KB, into dist/\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
