// Resolve hooks of load-observer.ts (they run on Node's loader thread): record every resolved URL.
import { appendFileSync } from "node:fs";

interface ResolveResult {
  url: string;
}
type NextResolve = (specifier: string, context: unknown) => Promise<ResolveResult>;

let out: string | undefined;

export function initialize(data: { out: string }): void {
  out = data.out;
}

export async function resolve(specifier: string, context: unknown, nextResolve: NextResolve): Promise<ResolveResult> {
  const result = await nextResolve(specifier, context);
  if (out) appendFileSync(out, `esm ${result.url}\n`);
  return result;
}
