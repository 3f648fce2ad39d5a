/** `catdoc coverage`: per functor, which objects of its source category it covers; per category, the orphans. */
import { InvalidArgumentError } from "commander";
import { CliUsageError, EXIT_FAILURE, EXIT_OK } from "../cli-errors.js";
import { formatOption } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface CoverageOptions {
  format: "table" | "json";
  functor?: string;
  failUnder?: number;
}

function percentage(value: string): number {
  const number = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || number > 100) throw new InvalidArgumentError("Expected a percentage from 0 to 100.");
  return number;
}

const HELP = `
Each object A of a functor's source category is covered (mapped, and some arrow out of A maps
to an arrow that is no identity; an A with no arrow out of it is covered once mapped), trivially
covered (mapped, but every arrow out of A lands on an identity or is not mapped yet) or
uncovered (not mapped, or mapped to no object of the target category). COVERAGE is the covered
share. Orphans are objects with no arrow in or out besides their identity. The functors need not
validate. JSON output is {functors, categories} (with --fail-under: failUnder, failing).
Exit status: 0 done; 1 with --fail-under, some functor covers less; 2 bad usage (an unknown functor).`;

export function registerCoverageCommand({ program, action }: CommandRegistry): void {
  program
    .command("coverage")
    .description("per functor (e.g. requirements → tests): which source objects are covered, trivially covered or uncovered; orphans")
    .addOption(formatOption(["table", "json"], "table"))
    .option("--functor <id>", "only this functor")
    .option("--fail-under <pct>", "exit 1 when a functor covers less than this percentage of its source objects", percentage)
    .addHelpText("after", HELP)
    .action(
      action(async (context, options: CoverageOptions) => {
        const project = await context.load();
        if (options.functor !== undefined && !project.index.functors.has(options.functor))
          throw new CliUsageError(`unknown functor '${options.functor}' (list the functors with \`catdoc list functors\`)`);
        const [{ computeCoverage, coverageUnder }, { renderCoverageTable }] = await Promise.all([
          import("../../domain/coverage.js"),
          import("../render/coverage-table.js"),
        ]);
        const report = computeCoverage(project.index, options.functor === undefined ? {} : { functorId: options.functor });
        const threshold = options.failUnder;
        const failing = threshold === undefined ? [] : report.functors.filter((f) => coverageUnder(f, threshold));
        if (options.format === "json")
          context.json(threshold === undefined ? report : { ...report, failUnder: threshold, failing: failing.map((f) => f.functorId) });
        else context.out(renderCoverageTable(report, threshold, failing));
        return failing.length > 0 ? EXIT_FAILURE : EXIT_OK;
      }),
    );
}
