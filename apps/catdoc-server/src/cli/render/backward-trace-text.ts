/**
 * A backward trace without a target (`catdoc trace --reverse <object>`): what leads to the object
 * in its category and what covers it across functors, as JSON (steps shaped as the dashboard's
 * trace steps) and as text.
 */
import { crossStep, pathSteps, type TraceStep } from "../../dashboard/trace-view.js";
import type { BackwardTraceResult } from "../../domain/trace/backward.js";
import { oneLine } from "../text-width.js";
import type { SkippedStructure } from "../../domain/trace/valid-structures.js";
import { arrow, skippedLines } from "./trace-text.js";

export interface BackwardEntry {
  /** The object that leads to, or covers, the traced object. */
  objectId: string;
  categoryId: string;
  /** Its path to the traced object, along the arrows. */
  path: TraceStep[];
}

export interface BackwardView {
  direction: "backward";
  target: string;
  categoryId: string;
  found: boolean;
  leadsTo: BackwardEntry[];
  coveredBy: BackwardEntry[];
  truncated: boolean;
  /** Functors not followed because they fail validation (only when some were met). */
  skipped?: SkippedStructure[];
}

export function backwardView(result: BackwardTraceResult): BackwardView {
  const leadsTo = result.leadsTo.map((path) => ({
    objectId: path.objectIds[0] ?? "",
    categoryId: path.categoryId,
    path: pathSteps(path),
  }));
  const coveredBy = result.coveredBy.map((path) => {
    const first = path.steps[0];
    return {
      objectId: first?.fromObject ?? "",
      categoryId: first?.kind === "functor" ? first.fromCategory : result.categoryId,
      path: path.steps.map(crossStep),
    };
  });
  return {
    direction: "backward",
    target: result.target,
    categoryId: result.categoryId,
    found: leadsTo.length + coveredBy.length > 0,
    leadsTo,
    coveredBy,
    truncated: result.truncated,
    ...(result.skipped.length === 0 ? {} : { skipped: result.skipped }),
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function entryLines(entry: BackwardEntry, withCategory: boolean): string {
  const where = withCategory ? `  [${oneLine(entry.categoryId)}]` : "";
  return `  ${oneLine(entry.objectId)}${where}, ${plural(entry.path.length, "step")}\n${entry.path.map((step) => `      ${arrow(step)}\n`).join("")}`;
}

export function renderBackward(view: BackwardView): string {
  const target = oneLine(view.target);
  const within =
    view.leadsTo.length === 0
      ? `Nothing leads to ${target} in category ${oneLine(view.categoryId)}.\n`
      : `What leads to ${target} in category ${oneLine(view.categoryId)}: ${plural(view.leadsTo.length, "object")}, nearest first\n${view.leadsTo.map((e) => entryLines(e, false)).join("")}`;
  const across =
    view.coveredBy.length === 0
      ? `No functor maps an object onto ${target}.\n`
      : `What covers ${target}: ${plural(view.coveredBy.length, "object")}, fewest functors first\n${view.coveredBy.map((e) => entryLines(e, true)).join("")}`;
  const more = view.truncated ? "(more exist; only the first of each list are shown)\n" : "";
  return `${within}${across}${more}${skippedLines(view.skipped)}`;
}
