/**
 * A saved function's dependencies: PEP 508 names with optional extras and version specifiers,
 * nothing else — no URLs, paths or pip options (an argument starting with "-" would be an
 * option to pip), and no name ending like an archive (`x.tar.gz`, `x.whl`), which pip would
 * install from a file of that name in its working directory. The environment that runs a function's tests is pooled by the hash of the
 * normalised, sorted list, so equal lists share one environment.
 */
import { createHash } from "node:crypto";
import { ToolError } from "@local-mcp/core";

const NAME = "[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?";
const EXTRAS = "\\[[A-Za-z0-9._-]+(?:,[A-Za-z0-9._-]+)*\\]";
const SPEC = "(?:===|==|~=|!=|<=|>=|<|>)[A-Za-z0-9.*+!_-]+";
const REQUIREMENT = new RegExp(`^(${NAME})(${EXTRAS})?((?:${SPEC})(?:,${SPEC})*)?$`);
/** pip and uv take a "name" with an archive's extension for a file (relative to their working directory). */
const ARCHIVE_NAME = /\.(zip|whl|tar|tgz|tbz|txz|tlz|tar\.(gz|bz2|xz|lz|lzma))$/i;

/** PEP 503 name normalisation: lowercase, runs of `-_.` become `-`. */
function canonicalName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** Normalises, deduplicates and sorts the list; refuses anything that is not a plain requirement. */
export function normaliseDependencies(dependencies: readonly string[]): string[] {
  const out = new Set<string>();
  const bad: string[] = [];
  for (const raw of dependencies) {
    const compact = raw.replace(/\s+/g, "");
    const match = REQUIREMENT.exec(compact);
    if (!match || compact.length > 200 || ARCHIVE_NAME.test(match[1] ?? "")) {
      bad.push(raw);
      continue;
    }
    const [, name = "", extras = "", spec = ""] = match;
    out.add(`${canonicalName(name)}${extras.toLowerCase()}${spec}`);
  }
  if (bad.length > 0) {
    throw new ToolError("INVALID_INPUT", `Not a plain package requirement: ${bad.map((d) => JSON.stringify(d)).join(", ")}.`, {
      suggestion:
        'List PyPI distribution names with optional version specifiers, e.g. ["requests>=2.31", "python-dateutil"]; no URLs, paths or pip options.',
      details: { fields: [{ field: "dependencies", message: "not a plain requirement" }], invalid: bad },
    });
  }
  return [...out].sort();
}

/** The pool key of an environment: the Python it is made from and the sorted dependencies. */
export function environmentHash(pythonTag: string, dependencies: readonly string[]): string {
  return createHash("sha256")
    .update(JSON.stringify({ python: pythonTag, dependencies: [...dependencies].sort() }))
    .digest("hex")
    .slice(0, 16);
}
