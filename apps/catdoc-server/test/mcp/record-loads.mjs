// Preloaded with `node --import` by start-up.test.ts: records every module file the process
// loads, ES modules through a load hook (dynamic `import()` of bundle chunks included) and
// CommonJS ones from the require cache at exit, one absolute path a line in $RECORD_LOADS_FILE.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const file = process.env.RECORD_LOADS_FILE;
if (file !== undefined) {
  const hook = `
    import { appendFileSync } from "node:fs";
    export async function load(url, context, next) {
      if (url.startsWith("file:")) appendFileSync(${JSON.stringify(file)}, url + "\\n");
      return next(url, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
  const cache = createRequire(import.meta.url).cache;
  process.on("exit", () => appendFileSync(file, Object.keys(cache).map((path) => `${path}\n`).join("")));
}
