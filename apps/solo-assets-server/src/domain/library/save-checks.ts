/**
 * What a save checks before the quality gate runs, to keep the library clean and composable:
 *
 * 1. the secret scan (domain/gate/secret-scan.ts): a key or a high-entropy literal refuses the
 *    save, naming the lines — nothing is stored, since every version is kept;
 * 2. Python's parser (domain/python/analyzer-source.ts): the `from solo_lib import …` lines, the
 *    normalised fingerprint, the dangerous calls and the third-party imports — one that no
 *    declared dependency provides is said with its line and what to declare
 *    (domain/python/import-requirements.ts), and explains a test run that fails on it;
 * 3. composition: each imported name must be an active library function; the dependency
 *    closure is what the gate types and tests the code with (dependency-graph.ts);
 * 4. duplicates: the same fingerprint as an active or unverified function (refused by default,
 *    SOLO_DUPLICATES), or an embedding nearer than SOLO_SIMILAR_THRESHOLD to one (said by
 *    default, SOLO_SIMILAR).
 */
import { ToolError, isToolError } from "@local-mcp/core";
import type { GateChecks } from "../gate/quality-gate.js";
import { scanSecrets } from "../gate/secret-scan.js";
import { undeclaredImportWarning, undeclaredImports } from "../python/import-requirements.js";
import { analyzeSource } from "../python/source-analysis.js";
import type { LibraryDatabase } from "../storage/library-database.js";
import { resolveClosure, sameFingerprint } from "./dependency-graph.js";

export type CheckPolicy = "refuse" | "warn" | "off";

export interface CleanLibraryPolicy {
  /** Same normalised AST as another function (default refuse). */
  duplicates: CheckPolicy;
  /** Embedding similarity at or above `similarThreshold` (default warn). */
  similar: CheckPolicy;
  similarThreshold: number;
}

export interface SaveCheckDeps {
  db: LibraryDatabase;
  python: string;
  env: Readonly<Record<string, string>>;
  policy: CleanLibraryPolicy;
  /** The nearest stored functions to a text by embedding (FunctionLibrary.nearestFunctions). */
  nearest?: (
    text: string,
    k: number,
    options: { signal?: AbortSignal; exclude?: string },
  ) => Promise<{ name: string; similarity: number }[]>;
}

export interface SaveCheckRequest {
  name: string;
  code: string;
  /** The declared dependencies, normalised (PEP 508). */
  dependencies: readonly string[];
  /** The text the function is embedded from (for the similarity check). */
  embeddingText: string;
}

export type SaveChecker = (request: SaveCheckRequest, signal: AbortSignal) => Promise<GateChecks>;

function codeField(message: string) {
  return { fields: [{ field: "code", message }] };
}

export function createSaveChecker(deps: SaveCheckDeps): SaveChecker {
  return async (request, signal) => {
    const secrets = scanSecrets(request.code);
    if (secrets.length > 0) {
      const lines = secrets.map((s) => `line ${s.line}: ${s.kind} (${s.preview})`);
      throw new ToolError("INVALID_INPUT", `The code holds what looks like a secret, so it was not saved: ${lines.join("; ")}.`, {
        suggestion:
          "Take the key out of the code: read it from an environment variable or a parameter (os.environ['API_KEY']), then save again.",
        details: { ...codeField("holds a secret"), secrets },
      });
    }

    // The similarity lookup needs nothing from the parse: it runs while Python parses.
    const nearby =
      deps.policy.similar !== "off" && deps.nearest ? deps.nearest(request.embeddingText, 1, { signal, exclude: request.name }) : undefined;
    // Settled here so that a refusal below leaves no rejected promise behind; awaited where it is used.
    nearby?.catch(() => undefined);
    let analysis;
    try {
      analysis = await analyzeSource(deps.python, deps.env, request.code, signal);
    } catch (error) {
      // Without Python the gate cannot verify anything either; only composition needs the parser.
      if (signal.aborted || !isToolError(error) || request.code.includes("solo_lib")) throw error;
      return { imports: [], closure: [], dangerous: [], warnings: [] };
    }
    if (!analysis.ok) return { imports: [], closure: [], dangerous: [], warnings: [] }; // the lint step reports the syntax error

    if (analysis.bad_library_imports.length > 0) {
      const lines = analysis.bad_library_imports.map((b) => `line ${b.line}: ${b.text}`);
      throw new ToolError("INVALID_INPUT", `Library functions are imported one way only, at the top: ${lines.join("; ")}.`, {
        suggestion: "Write `from solo_lib import name` (several names allowed, no alias, no submodule) at the top of the code.",
        details: codeField("unsupported solo_lib import"),
      });
    }
    const imports = [...new Set(analysis.library_imports.map((i) => i.name))];
    const { closure, duplicates } = await deps.db.read(
      async (session) => ({
        closure: imports.length > 0 ? await resolveClosure(session, imports, { activeOnly: true, saving: request.name }) : [],
        duplicates: deps.policy.duplicates === "off" ? [] : await sameFingerprint(session, analysis.fingerprint, request.name),
      }),
      signal,
    );

    const undeclared = undeclaredImports(analysis.third_party_imports, [
      ...request.dependencies,
      ...closure.flatMap((m) => m.dependencies),
    ]);
    const warnings: string[] = [];
    if (duplicates.length > 0) {
      const names = duplicates.map((n) => `'${n}'`).join(", ");
      const message = `'${request.name}' is the same code as ${names} (names, docstrings, annotations and formatting aside).`;
      if (deps.policy.duplicates === "refuse") {
        throw new ToolError("CONFLICT", message, {
          suggestion: `Use ${duplicates[0] ?? ""} (get_function) instead of saving a copy, or save a new version of it; SOLO_DUPLICATES=warn stores copies with a warning.`,
          details: { duplicates },
        });
      }
      warnings.push(message);
    }
    if (nearby) {
      const near = (await nearby).find((n) => n.similarity >= deps.policy.similarThreshold && !duplicates.includes(n.name));
      if (near) {
        const message = `'${request.name}' is described much like '${near.name}' (similarity ${near.similarity.toFixed(2)}, threshold ${deps.policy.similarThreshold}).`;
        if (deps.policy.similar === "refuse") {
          throw new ToolError("CONFLICT", message, {
            suggestion: `Check ${near.name} with get_function first; if it is a different function, describe what sets this one apart, or set SOLO_SIMILAR=warn.`,
            details: { similar: near },
          });
        }
        warnings.push(`${message} Check it is not the same function.`);
      }
    }
    return {
      imports,
      closure: closure.map((m) => ({ name: m.name, version: m.version, code: m.code, dependencies: m.dependencies })),
      dangerous: analysis.dangerous,
      fingerprint: analysis.fingerprint,
      warnings: [...warnings, ...undeclared.map(undeclaredImportWarning)],
      ...(undeclared.length > 0 ? { undeclared } : {}),
    };
  };
}
