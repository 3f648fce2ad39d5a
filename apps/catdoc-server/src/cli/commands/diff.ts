/** `catdoc diff`: the documents changed since the links at them were last reviewed, and the links that makes suspect. */
import { formatOption } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface DiffOptions {
  format: "table" | "json";
}

export function registerDiffCommand({ program, action }: CommandRegistry): void {
  program
    .command("diff")
    .description("show what changed since the last review: changed documents, their hashes, and the links they make suspect")
    .addOption(formatOption(["table", "json"], "table"))
    .addHelpText(
      "after",
      "\nA document's hash is the SHA-256 of its file (or inline content; for an object without a document, its title).\n" +
        "Exit status 0 whether or not anything changed; `catdoc validate --strict` fails on suspect links.",
    )
    .action(
      action(async (context, options: DiffOptions) => {
        const project = await context.load();
        const { projectImpact } = await import("../../domain/change-impact/index.js");
        const impact = await projectImpact(project);
        const { diffJson, renderDiff } = await import("../render/change-impact-text.js");
        if (options.format === "json") context.json(diffJson(impact));
        else context.out(renderDiff(impact));
      }),
    );
}
