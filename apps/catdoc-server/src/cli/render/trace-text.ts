/** A trace as text: each path as the objects it visits and the arrows between them. */
import type { TraceStep, TraceView } from "../../dashboard/trace-view.js";
import type { SkippedStructure } from "../../domain/trace/valid-structures.js";
import { oneLine } from "../text-width.js";

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function arrow(step: TraceStep): string {
  const label = `${oneLine(step.name)} (${oneLine(step.id)})`;
  switch (step.kind) {
    case "morphism":
      return `--${label}--> ${oneLine(step.target)}`;
    case "functor":
      return `==${label}==> ${oneLine(step.target)}  [${oneLine(step.toCategoryId ?? "")}]`;
    case "naturalTransformation":
      return `~~${label}, component of ${oneLine(step.naturalTransformationId ?? "")} at ${oneLine(step.componentOf ?? "")}~~> ${oneLine(step.target)}`;
  }
}

function pathLines(view: TraceView, path: readonly TraceStep[]): string {
  if (path.length === 0) return `    ${oneLine(view.source)} (already there)\n`;
  return `    ${oneLine(view.source)}\n${path.map((step) => `      ${arrow(step)}\n`).join("")}`;
}

/** `all`: the caller asked for every path (the heading says how many were found). */
/** One line per structure a trace did not follow, saying why and how to follow it anyway. */
export function skippedLines(skipped: readonly SkippedStructure[] | undefined): string {
  return (skipped ?? [])
    .map((s) => {
      const kind = s.kind === "functor" ? "functor" : "natural transformation";
      return `skipped ${kind} ${oneLine(s.id)}: it fails validation (${s.codes.join(", ")}); --include-invalid follows it\n`;
    })
    .join("");
}

export function renderTrace(view: TraceView, all = false): string {
  return `${renderPaths(view, all)}${skippedLines(view.skipped)}`;
}

function renderPaths(view: TraceView, all: boolean): string {
  const to = view.target === null ? `category ${view.targetCategory}` : `${view.target}`;
  const where = view.crossCategory
    ? `from category ${view.sourceCategory} to category ${view.targetCategory}`
    : `in category ${view.categoryId ?? ""}`;
  if (!view.found) return `No path from ${oneLine(view.source)} to ${oneLine(to)} ${where}.\n`;
  const head = `${oneLine(view.source)} → ${oneLine(to)} ${where}`;
  if (view.paths.length === 1 && !all) {
    const only = view.paths[0] ?? [];
    return `${head}: shortest path, ${plural(only.length, "step")}\n${pathLines(view, only)}`;
  }
  const blocks = view.paths.map((path, i) => `  ${i + 1}. ${plural(path.length, "step")}\n${pathLines(view, path)}`).join("");
  const more = view.truncated ? "  (more paths exist; raise --max-depth or narrow the search)\n" : "";
  return `${head}: ${plural(view.paths.length, "path")}, shortest first\n${blocks}${more}`;
}
