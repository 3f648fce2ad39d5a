/**
 * A module-load observer for child processes: `node --import <LOAD_OBSERVER_URL> app.js` with
 * `LOCAL_MCP_LOAD_LOG=/path/to/file` appends one line per module the process (and its worker
 * threads) loads: `esm <url>` for every ESM import resolved (a `module.register` resolve hook,
 * which also sees `import()` of CommonJS packages) and `cjs <filename>` for every `require`
 * (`Module._load`, which `createRequire` goes through too). Builtins are included (`node:…`).
 * Read the file with `readLoadLog`, ask which packages appeared with `loadedPackages`.
 * Without the variable it does nothing.
 */
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";

interface ModuleInternals {
  _load: (request: string, parent: unknown, isMain: boolean) => unknown;
  _resolveFilename: (request: string, parent: unknown, isMain: boolean) => string;
}

const out = process.env.LOCAL_MCP_LOAD_LOG;
if (out) {
  register(new URL("./load-observer-hooks.js", import.meta.url), { parentURL: import.meta.url, data: { out } });
  const internals = Module as unknown as ModuleInternals;
  const originalLoad = internals._load;
  internals._load = function observedLoad(this: unknown, request, parent, isMain) {
    let name = request;
    try {
      name = internals._resolveFilename(request, parent, isMain);
    } catch {
      // Unresolvable: the real load throws the error; record the request as written.
    }
    appendFileSync(out, `cjs ${name}\n`);
    return originalLoad.call(this, request, parent, isMain);
  };
}
