/** `catdoc validate`: the laws of every category, functor and natural transformation (or one). */
import { Option } from "commander";
import type { ImpactScope } from "../../domain/change-impact/index.js";
import type { CatDocProject, ProjectIndex, ValidationReport } from "../../domain/index.js";
import type { ValidationCacheKey } from "../../domain/validate/validation-cache.js";
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
      const { impactCounts, projectImpact, suspectLinkIssues, withSuspectLinks } = await import("../../domain/change-impact/index.js");
      const render = await import("../render/validation-table.js");
      const scope = scopeOf(options);
      // The laws' report and table come from the validation cache when it holds this exact
      // category.yaml, scope and code (src/domain/validate/validation-cache.ts); suspect links are
      // always computed afresh.
      const cache = await validationCache(project, options, render.RENDER_MODULE_URL);
      const table =
        options.format === "table" && cache !== undefined ? await cache.readValidationTable(project.paths, cache.key) : undefined;
      const impact = await context.progress.around("Comparing documents with their reviews", () => projectImpact(project));
      const note = render.unreviewedNote(impact);
      const strict = options.strict === true;
      if (table !== undefined && suspectLinkIssues(impact, scope).length === 0) {
        // The report is the laws' report as it was: print its table as rendered then, byte for byte.
        context.outBytes(table.table);
        context.out(render.validationTail(table.table.length === 0, table, strict, note));
        return !table.isValid || (strict && table.summary.totalWarnings > 0) ? EXIT_FAILURE : EXIT_OK;
      }
      const cachedReport = cache === undefined ? undefined : await cache.readValidationReport(project.paths, cache.key);
      const laws = cachedReport ?? (await context.progress.around("Validating", () => runChecks(project.index, options)));
      const report = withSuspectLinks(laws, impact, scope);
      if (options.format === "json") context.json({ ...report, changeImpact: impactCounts(impact) });
      else if (report === laws) {
        // The printed table is the laws' table: encoded once, for stdout and the cache.
        const bytes = Buffer.from(render.renderIssueTable(laws), "utf8");
        context.outBytes(bytes);
        context.out(render.validationTail(bytes.length === 0, report, strict, note));
        if (cache !== undefined) await cache.writeValidationTable(project.paths, cache.key, laws, bytes);
      } else context.out(render.renderValidationTable(report, strict, note));
      // The report is kept by the runs that need it: JSON output, or suspect links to add to it.
      if (cache !== undefined && cachedReport === undefined && (options.format === "json" || report !== laws)) {
        await cache.writeValidationReport(project.paths, cache.key, laws);
      }
      return !report.isValid || (strict && report.summary.totalWarnings > 0) ? EXIT_FAILURE : EXIT_OK;
    }),
  );
}

/**
 * The validation cache's key for this run and its module; undefined for a small project, or code
 * run from source, which are never cached.
 */
async function validationCache(project: CatDocProject, options: ValidateOptions, renderModuleUrl: string) {
  const cache = await import("../../domain/validate/validation-cache.js");
  const morphisms = project.model.categories.reduce((sum, category) => sum + category.morphisms.length, 0);
  if (morphisms < cache.MIN_CACHED_MORPHISMS) return undefined;
  const { CHECKS_MODULE_URL } = await import("../../domain/validate/validate.js");
  const checks = cache.bundledChunk(CHECKS_MODULE_URL);
  const rendering = cache.bundledChunk(renderModuleUrl);
  if (checks === undefined || rendering === undefined) return undefined;
  const scope = scopeOf(options);
  const key: ValidationCacheKey = {
    category: project.version,
    scope: scope.kind === "project" ? "project" : `${scope.kind}:${scope.id}`,
    code: `${checks} ${rendering}`,
  };
  return { ...cache, key };
}
