/**
 * The gate a schema-valid model answer passes before a tool returns it. The schema (checked by
 * core with Ajv) says the answer has the right shape; the gate asks what the server can know on
 * top of it:
 *
 * - substance: an empty or trivially short answer to a question that has content is rejected
 *   (`emptyAnswerProblem`, and each task's own check, e.g. a verdict's evidence and reason);
 * - the exact facts at hand: what an answer cites must exist (a verdict's `line N: <code>` is
 *   compared with line N of the file, a review note's anchor with the diff's new side);
 * - the model's own certainty: its confidence against `confidence_threshold` (task-response.ts),
 *   and, when the server gave no token probabilities, the `LOCAL_MODEL_CONFIDENCE` policy.
 *
 * A rejected answer is retried with the reason fed back (model-service.ts), within the same
 * attempt budget as schema failures, then refused with UPSTREAM_ERROR. What the gate cannot know:
 * whether a well-formed, confident answer that cites real lines judges them rightly.
 */

/** The reason to reject an answer (fed back to the model), or undefined to accept it. */
export type AnswerCheck<T> = (value: T) => string | undefined;

/** Fewer non-space characters than this in all of an answer's strings is trivially short. */
export const MIN_SUBSTANCE_CHARS = 2;

/** Non-space characters in the strings of a value, plus one per number or boolean. */
export function substance(value: unknown): number {
  if (typeof value === "string") return value.replace(/\s+/g, "").length;
  if (typeof value === "number" || typeof value === "boolean") return 1;
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + substance(item), 0);
  if (value !== null && typeof value === "object") return Object.values(value).reduce<number>((sum, item) => sum + substance(item), 0);
  return 0;
}

/** Rejects an answer with no substance (`""`, `[]`, `{}`, all-null objects, a lone short string). */
export function emptyAnswerProblem(value: unknown): string | undefined {
  if (substance(value) >= MIN_SUBSTANCE_CHARS) return undefined;
  return "the answer is empty, but the question has content: answer it from the input";
}

/** A string field must hold at least `min` non-space characters. */
export function tooShort(text: string | null | undefined, min: number): boolean {
  return (text ?? "").replace(/\s+/g, "").length < min;
}

/** Runs checks in order; the first problem wins. */
export function allChecks<T>(...checks: (AnswerCheck<T> | undefined)[]): AnswerCheck<T> {
  return (value) => {
    for (const check of checks) {
      const problem = check?.(value);
      if (problem) return problem;
    }
    return undefined;
  };
}

/** Why an answer has no confidence, and what the server is. */
export function unknownConfidenceReason(model: string | undefined): string {
  return `the model server${model ? ` (${model})` : ""} returned no token probabilities (logprobs), so the answer's confidence is unknown`;
}
