/** `catdoc validate`: the laws of every category, functor and natural transformation (or one). */
import { Option } from "commander";
import type { ImpactScope } from "../../domain/change-impact/index.js";
import type { ProjectIndex, ValidationReport } from "../../domain/index.js";
import { EXIT_FAILURE, EXIT_OK } from "../cli-errors.js";
import { formatOption } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface ValidateOptions {
  format: "table" | "json";
  category?: string;
  functor?: string;
  nt?: string;
  strict?: boolean;
}

async function runChecks(index: ProjectIndex, options: ValidateOptions): Promise<ValidationReport> {
  const { validateCategory, validateFunctor, validateNaturalTransformation, validateProject } =
    await import("../../domain/validate/validate.js");
  if (options.category !== undefined) return validateCategory(index, options.category);
  if (options.functor !== undefined) return validateFunctor(index, options.functor);
  if (options.nt !== undefined) return validateNaturalTransformation(index, options.nt);
  return validateProject(index);
}

function scopeOf(options: ValidateOptions): ImpactScope {
  if (options.category !== undefined) return { kind: "category", id: options.category };
  if (options.functor !== undefined) return { kind: "functor", id: options.functor };
  if (options.nt !== undefined) return { kind: "naturalTransformation", id: options.nt };
  return { kind: "project" };
}

export function registerValidateCommand({ program, action }: CommandRegistry): void {
  const command = program
    .command("validate")
    .description(
      "check the category laws (errors) and missing compositions, empty categories, open naturality squares, suspect links (warnings)",
    )
    .addOption(formatOption(["table", "json"], "table"))
    .addOption(new Option("--category <id>", "validate only this category").conflicts(["functor", "nt"]))
    .addOption(new Option("--functor <id>", "validate only this functor").conflicts(["category", "nt"]))
    .addOption(new Option("--nt <id>", "validate only this natural transformation").conflicts(["category", "functor"]))
    .option("--strict", "also fail (exit 1) when there are warnings")
    .addHelpText(
      "after",
      "\nExit status: 0 valid; 1 invalid (any error), or any warning with --strict; 2 bad usage.\n" +
        "Give at most one of --category, --functor, --nt. JSON output is the report {isValid, errors, warnings, summary, changeImpact}.\n" +
        "SUSPECT_LINK: a document at an end of a reviewed link changed since `catdoc review` (see `catdoc diff`).",
    );
  command.action(
    action(async (context, options: ValidateOptions) => {
      const project = await context.load();
      const laws = await context.progress.around("Validating", () => runChecks(project.index, options));
      const { impactCounts, projectImpact, withSuspectLinks } = await import("../../domain/change-impact/index.js");
      const impact = await context.progress.around("Comparing documents with their reviews", () => projectImpact(project));
      const report = withSuspectLinks(laws, impact, scopeOf(options));
      const { renderValidationTable, unreviewedNote } = await import("../render/validation-table.js");
      if (options.format === "json") context.json({ ...report, changeImpact: impactCounts(impact) });
      else context.out(renderValidationTable(report, options.strict === true, unreviewedNote(impact)));
      const failed = !report.isValid || (options.strict === true && report.summary.totalWarnings > 0);
      return failed ? EXIT_FAILURE : EXIT_OK;
    }),
  );
}
