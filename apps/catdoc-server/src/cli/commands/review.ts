/** `catdoc review <id…> | --all`: marks suspect (or never reviewed) links reviewed. */
import { CliUsageError } from "../cli-errors.js";
import { formatOption } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface ReviewOptions {
  format: "table" | "json";
  all?: boolean;
}

export function registerReviewCommand({ program, action }: CommandRegistry): void {
  program
    .command("review")
    .description("mark links reviewed: record the hashes of the documents at their ends now (clears SUSPECT_LINK)")
    .argument("[ids...]", "links: a morphism id, <functor>/<object> or <nt>/<object>; a functor or nt id: its links that need a review")
    .option("--all", "review every suspect link and every link never reviewed (records a baseline)")
    .addOption(formatOption(["table", "json"], "table"))
    .addHelpText(
      "after",
      "\nGive link ids or --all, not both. A link that is not suspect, or is suspect only through another link,\n" +
        "is refused (exit 1, nothing written), as is an id that names no link. Links suspect through a reviewed\n" +
        "one clear with it. See `catdoc validate` (SUSPECT_LINK) and `catdoc diff` for what changed.",
    )
    .action(
      action(async (context, ids: string[], options: ReviewOptions) => {
        const all = options.all === true;
        if (all === ids.length > 0)
          throw new CliUsageError(all ? "give link ids or --all, not both" : "give the link ids to review, or --all");
        const { reviewLinks } = await import("../../domain/change-impact/index.js");
        const store = await context.store();
        const outcome = await context.progress.around("Reviewing", () => reviewLinks(store, all ? { all } : { ids }));
        if (options.format === "json") {
          context.json(outcome);
          return;
        }
        const { renderReview } = await import("../render/change-impact-text.js");
        context.out(renderReview(outcome));
      }),
    );
}
