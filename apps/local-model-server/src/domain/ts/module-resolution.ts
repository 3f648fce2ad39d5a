/**
 * Where an import leads: a relative specifier resolves to a file under the roots (NodeNext `.js`
 * specifiers map to `.ts` sources, extensionless ones try the usual extensions and `index`), a
 * bare specifier is an external package (builtins as `node:x`).
 */
import { builtinModules } from "node:module";
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { isToolError } from "@local-mcp/core";
import type { PathGuard } from "../paths/path-guard.js";

export type ResolvedImport =
  { kind: "internal"; absolute: string } | { kind: "external"; name: string } | { kind: "outside" } | { kind: "unresolved" };

const EXTENSIONS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"];
const JS_TO_TS: Record<string, string[]> = { ".js": [".ts", ".tsx"], ".jsx": [".tsx"], ".mjs": [".mts"], ".cjs": [".cts"] };
const BUILTINS = new Set(builtinModules);

export function isRelativeSpecifier(specifier: string): boolean {
  return specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/");
}

/** `@scope/pkg/sub` → `@scope/pkg`, `pkg/sub` → `pkg`, `fs` / `node:fs` → `node:fs`. */
export function packageName(specifier: string): string {
  if (specifier.startsWith("node:")) return specifier;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
  return BUILTINS.has(name) ? `node:${name}` : name;
}

function candidates(base: string): string[] {
  const out: string[] = [];
  for (const [js, tsExts] of Object.entries(JS_TO_TS)) {
    if (base.endsWith(js)) for (const ext of tsExts) out.push(base.slice(0, -js.length) + ext);
  }
  out.push(base);
  for (const ext of EXTENSIONS) out.push(base + ext);
  for (const ext of EXTENSIONS) out.push(`${base}/index${ext}`);
  return out;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

export async function resolveImport(fromFile: string, specifier: string, guard: PathGuard): Promise<ResolvedImport> {
  if (!isRelativeSpecifier(specifier)) return { kind: "external", name: packageName(specifier) };
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of candidates(base)) {
    if (!(await isFile(candidate))) continue;
    try {
      return { kind: "internal", absolute: await guard.resolveExisting(candidate) };
    } catch (error) {
      if (isToolError(error) && error.code === "FORBIDDEN") return { kind: "outside" };
      throw error;
    }
  }
  return { kind: "unresolved" };
}
