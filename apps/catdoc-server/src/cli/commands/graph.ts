/** `catdoc graph`: the category graph as JSON, Mermaid or Graphviz DOT. */
import { formatOption } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface GraphOptions {
  format: "mermaid" | "dot" | "json";
  category?: string;
  identities?: boolean;
  functors?: boolean;
}

export function registerGraphCommand({ program, action }: CommandRegistry): void {
  program
    .command("graph")
    .description("print the graph of the categories: objects as nodes, morphisms as edges")
    .addOption(formatOption(["mermaid", "dot", "json"], "mermaid"))
    .option("--category <id>", "only this category")
    .option("--identities", "mermaid/dot: also draw identity morphisms (JSON always lists them, flagged isIdentity)")
    .option("--functors", "also draw functor arrows A → F(A) between the categories drawn")
    .addHelpText(
      "after",
      "\nJSON is the dashboard's /api/graph shape: {categories, nodes[{id,label,type,domain,categoryId}], edges[{id,source,target,label,type,categoryId,isIdentity}]}.\n" +
        "Render Mermaid in Markdown (```mermaid) and DOT with Graphviz: catdoc graph --format dot | dot -Tsvg > graph.svg",
    )
    .action(
      action(async (context, options: GraphOptions) => {
        const project = await context.load();
        const [{ buildGraph }, { toDot, toMermaid }] = await Promise.all([
          import("../../dashboard/graph.js"),
          import("../render/graph-formats.js"),
        ]);
        const graph = buildGraph(project.index, {
          ...(options.category === undefined ? {} : { categoryId: options.category }),
          functors: options.functors === true,
        });
        const text = { identities: options.identities === true };
        if (options.format === "json") context.json(graph);
        else context.out(options.format === "dot" ? toDot(graph, text) : toMermaid(graph, text));
      }),
    );
}
