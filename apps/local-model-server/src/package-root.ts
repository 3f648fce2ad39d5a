import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder of this package (where its package.json is), found from the URL of a module inside
 * it: a source file under src/, a built file under dist/ or a bundle chunk under dist/chunks/ —
 * so files the package ships beside its code (templates/, the parser worker) are found the same
 * way from each.
 */
export function packageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
  return dir;
}
