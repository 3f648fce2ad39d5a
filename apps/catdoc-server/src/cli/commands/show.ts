/** `catdoc show <kind> <id>`: one object, morphism, category, functor or natural transformation. */
import { Argument } from "commander";
import type { CatDocProject } from "../../domain/index.js";
import { formatOption } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";
import { safeText } from "../text-width.js";

interface ShowOptions {
  format: "text" | "json";
  content?: boolean;
}

type Kind = "object" | "morphism" | "category" | "functor" | "nt" | "natural-transformation";
const KINDS: Kind[] = ["object", "morphism", "category", "functor", "nt", "natural-transformation"];

async function detailOf(project: CatDocProject, kind: Kind, id: string): Promise<{ json: unknown; text: string }> {
  const { index } = project;
  const [
    { categoryDetail, functorDetail, morphismDetail, naturalTransformationDetail, objectDetail },
    { categoryText, functorText, morphismText, naturalTransformationText, objectText },
  ] = await Promise.all([import("../../dashboard/details.js"), import("../render/details-text.js")]);
  switch (kind) {
    case "object": {
      const detail = await objectDetail(project, id);
      return { json: detail, text: objectText(detail) };
    }
    case "morphism": {
      const detail = morphismDetail(index, id);
      return { json: detail, text: morphismText(detail) };
    }
    case "category": {
      const detail = categoryDetail(index, id);
      return { json: detail, text: categoryText(detail) };
    }
    case "functor": {
      const detail = functorDetail(index, id);
      return { json: detail, text: functorText(detail) };
    }
    case "nt":
    case "natural-transformation": {
      const detail = naturalTransformationDetail(index, id);
      return { json: detail, text: naturalTransformationText(detail) };
    }
  }
}

export function registerShowCommand({ program, action }: CommandRegistry): void {
  program
    .command("show")
    .description("show one object, morphism, category, functor or nt (natural transformation) with its relations")
    .addArgument(new Argument("<kind>", "what to show").choices(KINDS))
    .argument("<id>", "its id")
    .addOption(formatOption(["text", "json"], "text"))
    .option("--content", "objects: also print the document's Markdown (without frontmatter)")
    .addHelpText("after", "\nExit status 1 when the id names nothing (e.g. \"Object 'x' not found\").")
    .action(
      action(async (context, kind: Kind, id: string, options: ShowOptions) => {
        const project = await context.load();
        const detail = await detailOf(project, kind, id);
        const document = options.content === true && kind === "object" ? (await project.documents()).byObject.get(id) : undefined;
        if (options.format === "json") {
          context.json(document === undefined ? detail.json : { ...(detail.json as object), content: document.body });
          return;
        }
        context.out(detail.text);
        if (options.content === true && kind === "object") {
          context.out(
            document === undefined ? "\n(no document found for this object)" : `\n--- document ---\n${safeText(document.body).trim()}`,
          );
        }
      }),
    );
}
