/** `catdoc export`: the project's traceability as a static HTML page, CSV, ReqIF 1.2 or JSON, written into the project. */
import { resolve } from "node:path";
import { Option } from "commander";
import { CliUsageError } from "../cli-errors.js";
import type { CommandRegistry } from "../program.js";

const FORMATS = ["html", "csv", "reqif", "json"] as const;

interface ExportCommandOptions {
  format?: (typeof FORMATS)[number];
  out: string;
  functor?: string;
}

const HELP = `
html: one self-contained page (inline CSS, no script; opens from disk): coverage per functor,
then per functor a matrix of its source objects (title, id) × their images and the arrows out
of them, uncovered / trivially covered / suspect rows marked, and the suspect links.
csv: one row per (functor, source object): image, status (covered, trivially-covered,
uncovered), suspect; RFC 4180, cells starting with = + - @ get a leading '.
reqif: ReqIF 1.2 XML: a SPEC-OBJECT per object, a SPEC-RELATION per morphism (identities
left out) and per functor object mapping, a SPECIFICATION per category.
json: the traceability model {schema: "catdoc-traceability", version: 1, ...} (docs/catdoc.md).
--out is relative to the working directory and must lie inside the project (not in .catdoc/);
its folder must exist. An existing file there is REPLACED, atomically (a temporary file renamed
over it). Without --format, the extension of --out says it (.html .htm .csv .reqif .xml .json).
Exit status: 0 written; 1 refused or failed (nothing written); 2 bad usage.`;

export function registerExportCommand({ program, action, setup }: CommandRegistry): void {
  program
    .command("export")
    .description("write the traceability matrix as HTML, CSV, ReqIF 1.2 or JSON (coverage per functor, suspect links)")
    .addOption(new Option("-f, --format <format>", "html, csv, reqif or json (default: from --out's extension)").choices(FORMATS))
    .requiredOption("-o, --out <path>", "file to write, inside the project (replaced if it exists)")
    .option("--functor <id>", "only this functor and its two categories")
    .addHelpText("after", HELP)
    .action(
      action(async (context, options: ExportCommandOptions) => {
        const { formatOfPath, writeExport } = await import("../../domain/export/index.js");
        const format = options.format ?? formatOfPath(options.out);
        if (format === undefined)
          throw new CliUsageError(`cannot tell the format from '${options.out}': give --format html|csv|reqif|json`);
        const project = await context.load();
        if (options.functor !== undefined && !project.index.functors.has(options.functor))
          throw new CliUsageError(`unknown functor '${options.functor}' (list the functors with \`catdoc list functors\`)`);
        const written = await context.progress.around(`Exporting ${format} to ${options.out}`, () =>
          writeExport(
            project,
            resolve(setup.cwd, options.out),
            {
              format,
              tool: `CatDoc ${setup.version}`,
              ...(options.functor === undefined ? {} : { functorId: options.functor }),
            },
            options.out,
          ),
        );
        const { summary } = written.model;
        context.out(
          `${written.replaced ? "Replaced" : "Wrote"} ${written.relativePath} (${format}, ${written.bytes} bytes): ` +
            `${summary.functors} functor(s), ${summary.objects} object(s), ${summary.suspectLinks} suspect link(s)`,
        );
      }),
    );
}
