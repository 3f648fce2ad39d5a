/** `catdoc trace <source> [target]`: paths between documents, inside a category or across. */
import { CliUsageError } from "../cli-errors.js";
import { formatOption, positiveInteger } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface TraceOptions {
  format: "text" | "json";
  all?: boolean;
  maxDepth?: number;
  category?: string;
  toCategory?: string;
  reverse?: boolean;
  includeInvalid?: boolean;
}

const HELP = `
Inside a category (both objects in one category): the shortest path by breadth-first search;
with --all, every simple path up to --max-depth morphisms (default 10), shortest first.
Across categories (--to-category, or a target defined in another category than the source):
paths through functors (A ↦ F(A)) and natural-transformation components (η_A), then morphisms
of the target category to the target object; with --to-category alone, where the source lands.
With --reverse, backwards: with a target, the paths from the target to the source; without one,
what leads to the source in its category (nearest first) and what covers it (the objects functors
map onto it, fewest functors first; --to-category keeps those of one category).
Functors and natural transformations that break a law are not followed (the output names each
one met, with its error codes); partial ones (objects or arrows not mapped yet) are followed where
they map; --include-invalid follows them all.
Exit status 0 whether or not a path exists ("No path …" is printed); 1 for an unknown id.`;

export function registerTraceCommand({ program, action }: CommandRegistry): void {
  program
    .command("trace")
    .description("find paths from one document to another (shortest, or all with --all), also across categories")
    .argument("<source>", "source object id")
    .argument("[target]", "target object id (optional with --to-category)")
    .addOption(formatOption(["text", "json"], "text"))
    .option("-a, --all", "list every simple path, not only the shortest")
    .option(
      "--max-depth <n>",
      "longest path listed by --all (morphisms), or most functor/component steps across categories (default 10)",
      positiveInteger,
    )
    .option("--category <id>", "trace inside this category")
    .option("--to-category <id>", "trace across categories into this one (through functors and natural transformations)")
    .option("--reverse", "trace backwards: what leads to the source and what covers it (with a target: paths from it to the source)")
    .option("--include-invalid", "also follow functors and natural transformations that break a law")
    .addHelpText("after", HELP)
    .action(
      action(async (context, source: string, target: string | undefined, options: TraceOptions) => {
        const reverse = options.reverse === true;
        if (reverse && target !== undefined && options.toCategory !== undefined)
          throw new CliUsageError("--to-category applies to `trace --reverse <object>` without a target");
        if (reverse && target === undefined && options.all === true)
          throw new CliUsageError("--all applies to a trace between two objects (`trace --reverse` alone lists every object found)");
        if (!reverse && target === undefined && options.toCategory === undefined)
          throw new CliUsageError("trace needs a target object, or --to-category <id>");
        if (options.category !== undefined && options.toCategory !== undefined && !reverse)
          throw new CliUsageError("give --category or --to-category, not both");
        if (reverse && target === undefined) {
          const project = await context.load();
          const [{ traceBackward }, { backwardView, renderBackward }] = await Promise.all([
            import("../../domain/trace/backward.js"),
            import("../render/backward-trace-text.js"),
          ]);
          const view = backwardView(
            traceBackward(project.index, source, {
              ...(options.category === undefined ? {} : { categoryId: options.category }),
              ...(options.toCategory === undefined ? {} : { coveringCategoryId: options.toCategory }),
              ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
              ...(options.includeInvalid === true ? { includeInvalid: true } : {}),
            }),
          );
          if (options.format === "json") context.json(view);
          else context.out(renderBackward(view));
          return;
        }
        const project = await context.load();
        const [{ traceView }, { renderTrace }] = await Promise.all([
          import("../../dashboard/trace-view.js"),
          import("../render/trace-text.js"),
        ]);
        // Backwards between two objects: the paths from the target to the source, along the arrows.
        const [from, to] = reverse && target !== undefined ? [target, source] : [source, target];
        const view = traceView(project.index, {
          source: from,
          ...(to === undefined ? {} : { target: to }),
          ...(options.category === undefined ? {} : { categoryId: options.category }),
          ...(options.toCategory === undefined ? {} : { toCategory: options.toCategory }),
          ...(options.all === true ? { all: true } : {}),
          ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
          ...(options.includeInvalid === true ? { includeInvalid: true } : {}),
        });
        if (options.format === "json") context.json(reverse ? { ...view, direction: "backward" } : view);
        else context.out(renderTrace(view, options.all === true));
      }),
    );
}
