/**
 * One runnable Python module made of library functions and what they import from the library
 * (`get_function` with its dependencies inlined, `export_function`): each function's top-level
 * statements in dependency order, its `from solo_lib import …` lines dropped (the functions are
 * now in the same module), the other imports gathered at the top once each (`__future__` first).
 * A top-level statement written the same way in two functions (`T = TypeVar("T")`) is kept once;
 * two different statements binding one name cannot share a module: CONFLICT naming both.
 */
import { ToolError } from "@local-mcp/core";
import type { ParsedSource, TopLevelStatement } from "../python/source-analysis.js";

export interface BundlePart {
  name: string;
  version: number;
  code: string;
  analysis: ParsedSource;
}

function statementText(lines: readonly string[], statement: TopLevelStatement): string {
  let start = statement.start - 1;
  // Comments right above a statement belong to it.
  while (start > 0 && /^#/.test(lines[start - 1] ?? "")) start--;
  return lines.slice(start, statement.end).join("\n").replace(/\s+$/, "");
}

/** The module's text after `header` (comment lines, each starting with "# "). */
export function bundleModule(parts: readonly BundlePart[], header: readonly string[]): string {
  const future: string[] = [];
  const imports: string[] = [];
  const code: string[] = [];
  const seen = new Set<string>();
  /** name → [function, statement text] of the statement that binds it. */
  const bound = new Map<string, { owner: string; text: string }>();
  const clashes: string[] = [];
  for (const part of parts) {
    const lines = part.code.split("\n");
    for (const statement of part.analysis.statements) {
      if (statement.kind === "solo_lib") continue;
      const text = statementText(lines, statement);
      if (seen.has(text)) continue;
      seen.add(text);
      for (const name of statement.names) {
        const earlier = bound.get(name);
        if (earlier && earlier.text !== text && !(statement.kind === "import" && imports.includes(earlier.text))) {
          clashes.push(`'${name}' (in ${earlier.owner} and ${part.name})`);
        }
        bound.set(name, { owner: part.name, text });
      }
      if (statement.kind === "future") future.push(text);
      else if (statement.kind === "import") imports.push(text);
      else code.push(text);
    }
  }
  if (clashes.length > 0) {
    throw new ToolError(
      "CONFLICT",
      `These functions cannot share one module: each defines ${[...new Set(clashes)].join(", ")} differently.`,
      {
        suggestion: "Export them into separate modules (module), or save one of them again with the clashing top-level name renamed.",
        details: { clashes },
      },
    );
  }
  const sections = [header.join("\n"), [...future, ...imports].join("\n"), ...code].filter((s) => s.length > 0);
  return `${sections.join("\n\n\n")}\n`;
}
