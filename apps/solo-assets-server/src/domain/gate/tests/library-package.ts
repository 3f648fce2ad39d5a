/**
 * The `solo_lib` package a composed function is typed and tested with: one module per library
 * function of its dependency closure (`solo_lib/fn_<name>.py`, the stored code) and an
 * `__init__.py` importing each function by name, dependencies first — so `from solo_lib import a`
 * works inside any of them, as it will after export (domain/library/module-bundle.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const LIBRARY_PACKAGE = "solo_lib";

/** Writes `<dir>/solo_lib/`; `closure` is in dependency order. */
export async function writeLibraryPackage(dir: string, closure: readonly { name: string; code: string }[]): Promise<void> {
  const packageDir = join(dir, LIBRARY_PACKAGE);
  await mkdir(packageDir, { recursive: true });
  for (const module of closure) await writeFile(join(packageDir, `fn_${module.name}.py`), module.code);
  const init = closure.map((m) => `from .fn_${m.name} import ${m.name} as ${m.name}`).join("\n");
  await writeFile(join(packageDir, "__init__.py"), `${init}\n`);
}
