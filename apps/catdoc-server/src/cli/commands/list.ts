/** `catdoc list <kind>`: objects, morphisms, categories, functors or natural transformations. */
import { Argument } from "commander";
import type { ProjectIndex } from "../../domain/index.js";
import { CliUsageError } from "../cli-errors.js";
import { formatOption, positiveInteger } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";
import { renderTable } from "../table.js";

interface ListOptions {
  format: "table" | "json";
  domain?: string;
  category?: string;
  limit?: number;
}

const KINDS = {
  objects: "objects",
  morphisms: "morphisms",
  categories: "categories",
  functors: "functors",
  nts: "naturalTransformations",
  "natural-transformations": "naturalTransformations",
} as const;
type Kind = keyof typeof KINDS;

interface Listing {
  /** JSON key, as in the dashboard's REST API. */
  key: string;
  headers: string[];
  items: unknown[];
  rows: string[][];
}

async function listing(index: ProjectIndex, kind: Kind, options: ListOptions): Promise<Listing> {
  const categoryId = options.category;
  if (options.domain !== undefined && kind !== "objects") throw new CliUsageError("--domain applies to `list objects` only");
  if (categoryId !== undefined && kind === "categories")
    throw new CliUsageError("--category does not apply to `list categories` (use `catdoc show category <id>`)");
  const inCategory = categoryId === undefined ? {} : { categoryId };
  const { categorySummaries, functorSummaries, morphismViews, naturalTransformationSummaries, objectViews } =
    await import("../../dashboard/views.js");
  switch (kind) {
    case "objects": {
      const items = objectViews(index, { ...inCategory, ...(options.domain === undefined ? {} : { domain: options.domain }) });
      return {
        key: "objects",
        headers: ["ID", "TITLE", "DOMAIN", "CATEGORY"],
        items,
        rows: items.map((o) => [o.id, o.title, o.domain, o.categoryId]),
      };
    }
    case "morphisms": {
      const items = morphismViews(index, inCategory);
      return {
        key: "morphisms",
        headers: ["ID", "NAME", "SOURCE", "TARGET", "CATEGORY", "IDENTITY"],
        items,
        rows: items.map((m) => [m.id, m.name, m.source, m.target, m.categoryId, m.isIdentity ? "yes" : ""]),
      };
    }
    case "categories": {
      const items = categorySummaries(index);
      return {
        key: "categories",
        headers: ["ID", "NAME", "OBJECTS", "MORPHISMS"],
        items,
        rows: items.map((c) => [c.id, c.name, String(c.objectCount), String(c.morphismCount)]),
      };
    }
    case "functors": {
      const items = functorSummaries(index, categoryId);
      return {
        key: "functors",
        headers: ["ID", "NAME", "SOURCE", "TARGET", "OBJECTS MAPPED", "MORPHISMS MAPPED"],
        items,
        rows: items.map((f) => [f.id, f.name, f.sourceCategory, f.targetCategory, String(f.mappedObjects), String(f.mappedMorphisms)]),
      };
    }
    case "nts":
    case "natural-transformations": {
      const items = naturalTransformationSummaries(index, categoryId);
      return {
        key: "naturalTransformations",
        headers: ["ID", "NAME", "SOURCE FUNCTOR", "TARGET FUNCTOR", "COMPONENTS"],
        items,
        rows: items.map((nt) => [nt.id, nt.name, nt.sourceFunctor, nt.targetFunctor, String(nt.componentCount)]),
      };
    }
  }
}

export function registerListCommand({ program, action }: CommandRegistry): void {
  program
    .command("list")
    .description("list objects (the default), morphisms, categories, functors or nts (natural transformations)")
    .addArgument(new Argument("[kind]", "what to list").choices(Object.keys(KINDS)).default("objects"))
    .addOption(formatOption(["table", "json"], "table"))
    .option("-d, --domain <domain>", "objects of this domain only")
    .option("--category <id>", "objects or morphisms of this category; functors and nts from or to it")
    .option("-l, --limit <n>", "list at most n items", positiveInteger)
    .addHelpText("after", "\nJSON output is {<kind>: [...], total} (the dashboard's /api/<kind> shape); total counts before --limit.")
    .action(
      action(async (context, kindArgument: string, options: ListOptions) => {
        const kind = kindArgument as Kind;
        const project = await context.load();
        const all = await listing(project.index, kind, options);
        const shown = options.limit === undefined ? all.items : all.items.slice(0, options.limit);
        if (options.format === "json") {
          context.json({ [all.key]: shown, total: all.items.length });
          return;
        }
        if (all.items.length === 0) {
          context.out(`No ${kindArgument === "nts" ? "natural transformations" : kindArgument.replace("-", " ")} found.`);
          return;
        }
        context.out(renderTable(all.headers, all.rows.slice(0, shown.length)));
        if (shown.length < all.items.length) context.note(`Showing ${shown.length} of ${all.items.length} (--limit ${options.limit}).`);
      }),
    );
}
