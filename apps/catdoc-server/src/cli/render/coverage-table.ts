/** The coverage report as a terminal table: one row per functor, then what is not covered, the orphans and the verdict. */
import type { CoverageReport, FunctorCoverage } from "../../domain/coverage.js";
import { renderTable } from "../table.js";

function percent(value: number): string {
  return `${value.toFixed(1)}%`;
}

function idLine(label: string, ids: readonly string[]): string {
  return ids.length === 0 ? "" : `  ${label} ${ids.join(", ")}\n`;
}

/** `failUnder`: the --fail-under threshold, if given; `failing`: the functors under it. */
export function renderCoverageTable(report: CoverageReport, failUnder?: number, failing: readonly FunctorCoverage[] = []): string {
  if (report.functors.length === 0 && report.categories.length === 0) return "No categories or functors.\n";
  const table =
    report.functors.length === 0
      ? "No functors.\n"
      : renderTable(
          ["FUNCTOR", "SOURCE → TARGET", "OBJECTS", "COVERED", "TRIVIALLY", "UNCOVERED", "COVERAGE"],
          report.functors.map((f) => [
            f.functorId,
            `${f.sourceCategory} → ${f.targetCategory}`,
            String(f.objects),
            String(f.covered),
            String(f.triviallyCovered),
            String(f.uncovered),
            percent(f.percent.covered),
          ]),
        );
  const gaps = report.functors
    .filter((f) => f.uncovered + f.triviallyCovered > 0)
    .map((f) => `${f.functorId}:\n${idLine("uncovered:        ", f.uncoveredIds)}${idLine("trivially covered:", f.triviallyCoveredIds)}`)
    .join("");
  const orphans = report.categories
    .filter((c) => c.orphans.length > 0)
    .map((c) => `orphans in ${c.categoryId}: ${c.orphans.join(", ")}\n`)
    .join("");
  const verdict =
    failUnder === undefined
      ? ""
      : failing.length === 0
        ? `COVERAGE OK: every functor covers at least ${failUnder}% of its source objects\n`
        : `FAILED (--fail-under ${failUnder}): ${failing.map((f) => `${f.functorId} covers ${percent(f.percent.covered)}`).join(", ")}\n`;
  return [table, gaps, orphans, verdict].filter((part) => part !== "").join("\n");
}
