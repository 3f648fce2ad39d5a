import type { FileFacts, ImportFact } from "../analysis/source-facts.js";
import type { Convention } from "./catalog-schema.js";
import { Counter, formatTop, percent } from "./counting.js";

const NODE_BUILTINS = new Set([
  "assert",
  "async_hooks",
  "buffer",
  "child_process",
  "cluster",
  "console",
  "crypto",
  "dgram",
  "dns",
  "events",
  "fs",
  "fs/promises",
  "http",
  "http2",
  "https",
  "module",
  "net",
  "os",
  "path",
  "perf_hooks",
  "process",
  "querystring",
  "readline",
  "stream",
  "stream/promises",
  "string_decoder",
  "timers",
  "timers/promises",
  "tls",
  "tty",
  "url",
  "util",
  "v8",
  "vm",
  "worker_threads",
  "zlib",
]);
const ESM_STYLES = new Set(["esm-named", "esm-default", "esm-namespace", "esm-side-effect", "esm-reexport", "dynamic-import"]);

/** The package an import names: `@scope/pkg/sub` → `@scope/pkg`, `zod/v4` → `zod`, `os.path` → `os`. */
export function packageOf(fact: ImportFact): string {
  const s = fact.specifier;
  if (fact.style.startsWith("python")) return s.split(".")[0] ?? s;
  if (fact.style === "rust-use") return s.split("::")[0] ?? s;
  if (fact.style === "java-import") return s.split(".").slice(0, 2).join(".");
  if (fact.style === "go-import") return s;
  if (s.startsWith("node:")) return s;
  const parts = s.split("/");
  return s.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? s);
}

function isRelative(fact: ImportFact): boolean {
  return fact.specifier.startsWith(".");
}

/** Import style: module system, relative specifiers and their extensions, node: builtins, type-only imports, top packages. */
export function importsConvention(facts: readonly FileFacts[]): Convention {
  const js = facts.filter((f) => f.language === "typescript" || f.language === "javascript").flatMap((f) => f.imports);
  const python = facts.filter((f) => f.language === "python").flatMap((f) => f.imports);
  const other = facts.filter((f) => !["typescript", "javascript", "python"].includes(f.language)).flatMap((f) => f.imports);
  const rules: string[] = [];
  const summary: string[] = [];
  const details: Record<string, unknown> = {};

  if (js.length > 0) {
    const styles = new Counter();
    for (const fact of js) styles.add(fact.style);
    const esm = js.filter((f) => ESM_STYLES.has(f.style)).length;
    const require = styles.get("commonjs-require");
    const relative = js.filter(isRelative);
    const extensions = new Counter();
    for (const fact of relative) {
      const ext = /\.(?:[cm]?[jt]sx?|json)$/.exec(fact.specifier)?.[0];
      extensions.add(ext ?? "(none)");
    }
    const builtins = js.filter((f) => f.specifier.startsWith("node:") || NODE_BUILTINS.has(f.specifier));
    const prefixed = builtins.filter((f) => f.specifier.startsWith("node:")).length;
    const typeOnly = js.filter((f) => f.typeOnly).length;
    const packages = new Counter();
    for (const fact of js)
      if (!isRelative(fact) && !fact.specifier.startsWith("node:") && !NODE_BUILTINS.has(fact.specifier)) packages.add(packageOf(fact));
    const [topExtension, topExtensionCount] = extensions.top(1)[0] ?? ["(none)", 0];

    rules.push(
      require === 0
        ? `ES modules only: ${esm} imports, no require()`
        : `${esm} ES module imports and ${require} require() calls (${percent(esm, esm + require)} ESM)`,
    );
    if (relative.length > 0) {
      rules.push(
        topExtension === "(none)"
          ? `Relative imports leave out the file extension (${topExtensionCount} of ${relative.length})`
          : `Relative imports carry the ${topExtension} extension (${topExtensionCount} of ${relative.length}${topExtension === ".js" ? ", NodeNext style" : ""})`,
      );
    }
    if (builtins.length > 0)
      rules.push(
        prefixed >= builtins.length / 2
          ? `Node built-ins use the node: prefix (${prefixed} of ${builtins.length})`
          : `Node built-ins are imported without the node: prefix (${builtins.length - prefixed} of ${builtins.length})`,
      );
    if (typeOnly > 0) rules.push(`Types are imported with \`import type\` (${typeOnly} type-only imports)`);
    if (styles.get("esm-reexport") > 0) rules.push(`Modules re-export with \`export … from\` (${styles.get("esm-reexport")})`);
    if (packages.size > 0) rules.push(`Most used packages: ${formatTop(packages.top(8))}`);
    summary.push(
      `${require === 0 ? "ES modules" : `${percent(esm, esm + require)} ES modules`}` +
        (relative.length > 0 ? `; relative imports ${topExtension === "(none)" ? "without extensions" : `with ${topExtension}`}` : "") +
        (builtins.length > 0 && prefixed >= builtins.length / 2 ? "; node: built-ins" : "") +
        (typeOnly > 0 ? "; import type for types" : ""),
    );
    details.javascript = {
      styles: styles.toRecord(),
      esm,
      require,
      relative: relative.length,
      relativeExtensions: extensions.toRecord(),
      builtins: builtins.length,
      builtinsWithNodePrefix: prefixed,
      typeOnly,
      packages: Object.fromEntries(packages.top(15)),
    };
  }

  if (python.length > 0) {
    const from = python.filter((f) => f.style === "python-from").length;
    const relative = python.filter(isRelative).length;
    const packages = new Counter();
    for (const fact of python) if (!isRelative(fact)) packages.add(packageOf(fact));
    rules.push(`Python: ${from} \`from … import\` and ${python.length - from} \`import …\` statements; ${relative} relative`);
    if (packages.size > 0) rules.push(`Python modules imported most: ${formatTop(packages.top(8))}`);
    summary.push(`Python prefers ${from >= python.length - from ? "from … import" : "import …"}`);
    details.python = { from, import: python.length - from, relative, packages: Object.fromEntries(packages.top(15)) };
  }

  if (other.length > 0) {
    const packages = new Counter();
    for (const fact of other) packages.add(packageOf(fact));
    rules.push(`Other languages import most: ${formatTop(packages.top(8))}`);
    details.other = { imports: other.length, packages: Object.fromEntries(packages.top(15)) };
  }

  return {
    name: "imports",
    title: "Import style",
    summary: summary.length > 0 ? `${summary.join(". ")}.` : "No imports were found.",
    rules,
    details,
  };
}
