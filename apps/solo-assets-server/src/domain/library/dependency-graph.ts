/**
 * Composition's records: which library functions each function imports (`from solo_lib import
 * a`), in `function_uses`, and each function's normalised fingerprint (domain/python/
 * analyzer-source.ts), in `function_fingerprints` — both keyed by name, both written in the save's
 * transaction and removed with the function (schema.ts). The dependency closure of a save is
 * resolved from the current rows: only `active` functions may be imported.
 */
import { ToolError } from "@local-mcp/core";
import type { FunctionStatus } from "../gate/gate-report.js";
import { varcharList } from "../storage/library-database.js";
import type { DbSession } from "../storage/library-database.js";

/** A library function as composition uses it: the current version of its row. */
export interface LibraryModule {
  name: string;
  version: number;
  status: FunctionStatus;
  code: string;
  dependencies: string[];
  /** The library functions it imports directly. */
  uses: string[];
}

export async function recordLinks(
  session: DbSession,
  name: string,
  uses: readonly string[],
  fingerprint: string | undefined,
): Promise<void> {
  await session.run(`DELETE FROM function_uses WHERE name = $name`, { name });
  for (const used of new Set(uses)) await session.run(`INSERT INTO function_uses VALUES ($name, $used)`, { name, used });
  // One statement each way: every statement in the save's transaction costs time on every save.
  if (fingerprint) await session.run(`INSERT OR REPLACE INTO function_fingerprints VALUES ($name, $fingerprint)`, { name, fingerprint });
  else await session.run(`DELETE FROM function_fingerprints WHERE name = $name`, { name });
}

export async function removeLinks(session: DbSession, name: string): Promise<void> {
  await session.run(`DELETE FROM function_uses WHERE name = $name`, { name });
  await session.run(`DELETE FROM function_fingerprints WHERE name = $name`, { name });
}

/** The functions in the library whose current version imports `name`, sorted. */
export async function usersOf(session: DbSession, name: string): Promise<string[]> {
  const rows = await session.all(
    `SELECT u.name FROM function_uses u JOIN functions f ON f.name = u.name WHERE u.uses = $name AND u.name <> $name ORDER BY u.name`,
    { name },
  );
  return rows.map((row) => String(row.name));
}

/**
 * Active or unverified functions with no fingerprint: saved before the duplicate check existed
 * (or while Python was missing). `reindex` fingerprints them (FunctionLibrary.reindex).
 */
export async function unfingerprinted(session: DbSession): Promise<{ name: string; code: string }[]> {
  const rows = await session.all(
    `SELECT f.name, f.code FROM functions f LEFT JOIN function_fingerprints p ON p.name = f.name
     WHERE p.name IS NULL AND f.status IN ('active', 'unverified') ORDER BY f.name`,
  );
  return rows.map((row) => ({ name: String(row.name), code: String(row.code) }));
}

/** Records `fingerprint` for `name` only if its current code is still `code` and it has none yet. */
export async function backfillFingerprint(session: DbSession, name: string, code: string, fingerprint: string): Promise<boolean> {
  const current = await session.all(
    `SELECT 1 FROM functions f WHERE f.name = $name AND f.code = $code
     AND NOT EXISTS (SELECT 1 FROM function_fingerprints p WHERE p.name = $name)`,
    { name, code },
  );
  if (current.length === 0) return false;
  await session.run(`INSERT INTO function_fingerprints VALUES ($name, $fingerprint)`, { name, fingerprint });
  return true;
}

/** Active or unverified functions (not `exclude`) whose fingerprint is `fingerprint`. */
export async function sameFingerprint(session: DbSession, fingerprint: string, exclude: string): Promise<string[]> {
  const rows = await session.all(
    `SELECT p.name FROM function_fingerprints p JOIN functions f ON f.name = p.name
     WHERE p.fingerprint = $fingerprint AND p.name <> $exclude AND f.status IN ('active', 'unverified') ORDER BY p.name`,
    { fingerprint, exclude },
  );
  return rows.map((row) => String(row.name));
}

async function loadModules(session: DbSession, names: readonly string[]): Promise<Map<string, LibraryModule>> {
  const out = new Map<string, LibraryModule>();
  if (names.length === 0) return out;
  const rows = await session.all(
    `SELECT f.name, f.version, f.status, f.code, f.dependencies,
            coalesce((SELECT list(u.uses ORDER BY u.uses) FROM function_uses u WHERE u.name = f.name), []) AS uses
     FROM functions f WHERE list_contains($names, f.name)`,
    { names: varcharList(names) },
  );
  for (const row of rows) {
    out.set(String(row.name), {
      name: String(row.name),
      version: Number(row.version),
      status: row.status as FunctionStatus,
      code: String(row.code),
      dependencies: Array.isArray(row.dependencies) ? row.dependencies.map(String) : [],
      uses: Array.isArray(row.uses) ? row.uses.map(String) : [],
    });
  }
  return out;
}

export interface ClosureOptions {
  /** The function being saved: importing it (directly or through others) is a cycle. */
  saving?: string;
  /** Only active functions may be imported (a save); export and inlining take what is stored. */
  activeOnly: boolean;
}

/**
 * `roots` and every library function they import, dependencies first (each after what it
 * imports). Unknown names are NOT_FOUND, non-active ones (when `activeOnly`) and cycles CONFLICT,
 * each naming the functions.
 */
export async function resolveClosure(session: DbSession, roots: readonly string[], options: ClosureOptions): Promise<LibraryModule[]> {
  const found = new Map<string, LibraryModule>();
  let frontier = [...new Set(roots)];
  while (frontier.length > 0) {
    const loaded = await loadModules(session, frontier);
    const missing = frontier.filter((name) => !loaded.has(name));
    if (missing.length > 0) {
      throw new ToolError("NOT_FOUND", `No library function named ${missing.map((n) => `'${n}'`).join(", ")} (imported from solo_lib).`, {
        suggestion: "Save the imported function first (search_functions finds what exists), or fix the name in `from solo_lib import …`.",
        details: { fields: [{ field: "code", message: `unknown solo_lib import: ${missing.join(", ")}` }], missing },
      });
    }
    for (const module of loaded.values()) found.set(module.name, module);
    frontier = [...new Set([...loaded.values()].flatMap((m) => m.uses))].filter((name) => !found.has(name));
  }
  if (options.activeOnly) {
    const inactive = [...found.values()].filter((m) => m.status !== "active");
    if (inactive.length > 0) {
      throw new ToolError(
        "CONFLICT",
        `Only verified (active) functions can be imported: ${inactive.map((m) => `'${m.name}' is ${m.status}`).join(", ")}.`,
        {
          suggestion: "Save the imported function again with passing test cases until it is active, then save this one.",
          details: { fields: [{ field: "code", message: "imports a function that is not active" }], inactive: inactive.map((m) => m.name) },
        },
      );
    }
  }
  if (options.saving !== undefined && found.has(options.saving)) {
    throw new ToolError("CONFLICT", `'${options.saving}' would import itself through solo_lib (an import cycle).`, {
      suggestion: "A library function may only import functions that do not import it; move the shared part into a function of its own.",
      details: { fields: [{ field: "code", message: "import cycle" }] },
    });
  }
  // Dependencies first: depth-first, each module after the modules it uses.
  const ordered: LibraryModule[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string, path: string[]) => {
    const module = found.get(name);
    if (!module || state.get(name) === "done") return;
    if (state.get(name) === "visiting") {
      throw new ToolError("CONFLICT", `The library's imports form a cycle: ${[...path, name].join(" → ")}.`, {
        suggestion: "Save one of these functions again without the import that closes the cycle.",
      });
    }
    state.set(name, "visiting");
    for (const used of module.uses) visit(used, [...path, name]);
    state.set(name, "done");
    ordered.push(module);
  };
  for (const name of [...found.keys()].sort()) visit(name, []);
  return ordered;
}
