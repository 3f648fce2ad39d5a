/** `catdoc diff`: the documents changed since the links at them were last reviewed, and the links that makes suspect. */
import { formatOption } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface DiffOptions {
  format: "table" | "json";
  stat?: boolean;
}

export function registerDiffCommand({ program, action }: CommandRegistry): void {
  program
    .command("diff")
    .description("show what changed since the last review: changed documents, their hashes, the links they make suspect, and the text diff")
    .addOption(formatOption(["table", "json"], "table"))
    .option("--stat", "only the table: no text diff")
    .addHelpText(
      "after",
      "\nA document's hash is the SHA-256 of its file (or inline content; for an object without a document, its title).\n" +
        "The text diff compares the reviewed text, kept by `catdoc review` in .catdoc/reviewed/ (commit it), with the text now.\n" +
        "Exit status 0 whether or not anything changed; `catdoc validate --strict` fails on suspect links.",
    )
    .action(
      action(async (context, options: DiffOptions) => {
        const project = await context.load();
        const { documentTextDiffs, projectImpact } = await import("../../domain/change-impact/index.js");
        const impact = await projectImpact(project);
        const { diffJson, renderDiff, renderTextDiffs } = await import("../render/change-impact-text.js");
        const texts = options.stat === true ? [] : await documentTextDiffs(project, impact);
        if (options.format === "json") context.json(diffJson(impact, options.stat === true ? undefined : texts));
        else context.out(renderDiff(impact) + renderTextDiffs(texts));
      }),
    );
}
