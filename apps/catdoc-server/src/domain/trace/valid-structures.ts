/**
 * Which functors and natural transformations a trace may follow: by default only those whose own
 * checks (validate/functors.ts, validate/natural-transformations.ts) find no law broken. Gaps — an
 * object or morphism not mapped yet, a missing component (GAP_CODES) — do not count: a partial
 * functor is followed where it maps (what coverage measures; "what covers X" while tests are still
 * being written). A trace that meets one that breaks a law says so — its kind, id and error
 * codes — and follows it only when asked (`includeInvalid`).
 */
import type { ProjectIndex } from "../project-index.js";
import { checkFunctor } from "../validate/functors.js";
import { GAP_CODES, IssueCollector } from "../validate/issues.js";
import type { ValidationCode } from "../validate/issues.js";
import { checkNaturalTransformation } from "../validate/natural-transformations.js";

export interface SkippedStructure {
  kind: "functor" | "naturalTransformation";
  id: string;
  /** The error codes its validation reports, each once, in the order first reported. */
  codes: ValidationCode[];
}

export interface InvalidStructures {
  functors: Map<string, SkippedStructure>;
  naturalTransformations: Map<string, SkippedStructure>;
}

const NONE: InvalidStructures = { functors: new Map(), naturalTransformations: new Map() };
const cache = new WeakMap<ProjectIndex, InvalidStructures>();

/** The functors and natural transformations that fail validation, by id (computed once per index). */
export function invalidStructures(index: ProjectIndex): InvalidStructures {
  let found = cache.get(index);
  if (found === undefined) {
    found = findInvalid(index);
    cache.set(index, found);
  }
  return found;
}

/** What a trace avoids: nothing with `includeInvalid`, else every structure that fails validation. */
export function structuresToSkip(index: ProjectIndex, includeInvalid: boolean | undefined): InvalidStructures {
  return includeInvalid === true ? NONE : invalidStructures(index);
}

/** The codes of the laws broken (gaps left out), each once. */
function codesOf(out: IssueCollector): ValidationCode[] {
  return [...new Set(out.errors.map((issue) => issue.code).filter((code) => !GAP_CODES.has(code)))];
}

function findInvalid(index: ProjectIndex): InvalidStructures {
  const functors = new Map<string, SkippedStructure>();
  const naturalTransformations = new Map<string, SkippedStructure>();
  index.model.functors.forEach((functor, position) => {
    const out = new IssueCollector();
    checkFunctor(index, functor, position, out);
    if (codesOf(out).length === 0) return;
    const known = functors.get(functor.id);
    if (known === undefined) functors.set(functor.id, { kind: "functor", id: functor.id, codes: codesOf(out) });
    else known.codes = [...new Set([...known.codes, ...codesOf(out)])];
  });
  index.model.naturalTransformations.forEach((nt, position) => {
    const out = new IssueCollector();
    checkNaturalTransformation(index, nt, position, out);
    if (codesOf(out).length === 0) return;
    const known = naturalTransformations.get(nt.id);
    if (known === undefined) naturalTransformations.set(nt.id, { kind: "naturalTransformation", id: nt.id, codes: codesOf(out) });
    else known.codes = [...new Set([...known.codes, ...codesOf(out)])];
  });
  return { functors, naturalTransformations };
}

/** Collects the skipped structures a trace met, each once, in the order met. */
export class SkipLog {
  private readonly met = new Map<string, SkippedStructure>();

  note(structure: SkippedStructure): void {
    this.met.set(`${structure.kind}\u0000${structure.id}`, structure);
  }

  list(): SkippedStructure[] {
    return [...this.met.values()];
  }
}
