/** `catdoc import <paths…>`: Markdown documents become objects of a category, references morphisms. */
import { resolve } from "node:path";
import { CatDocNotFoundError } from "../../domain/errors.js";
import { CliUsageError } from "../cli-errors.js";
import { formatOption } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface ImportOptions {
  format: "text" | "json";
  category?: string;
  createCategory?: string;
  domain?: string;
  dryRun?: boolean;
  force?: boolean;
}

const HELP = `
Each Markdown file (frontmatter id, title, domain, tags) becomes an object of the category, with
its identity, pointing to its file with metadata.path; references to other objects (@object-id,
[[wiki links]], relative links to imported files) become morphisms. Directories are searched
recursively. Paths outside the project root are refused. Importing again updates instead of
duplicating: objects whose document changed keep their values unless --force.
Without --category, the project's only category is used. -f is --format (the original CatDoc's
-f, overwrite existing objects, is --force).`;

export function registerImportCommand({ program, action, setup }: CommandRegistry): void {
  program
    .command("import")
    .description("import Markdown documents (files or directories) into a category of category.yaml")
    .argument("<paths...>", "Markdown files or directories inside the project")
    .option("--category <id>", "category the documents become objects of (default: the only category)")
    .option("--create-category <name>", "create --category with this name when it does not exist")
    .option("-d, --domain <domain>", "domain of documents whose frontmatter names none (default: import.defaultDomain of config.yaml)")
    .option("--dry-run", "show what would change; write nothing")
    .option("--force", "overwrite title, domain and tags of existing objects with their documents' values")
    .addOption(formatOption(["text", "json"], "text"))
    .addHelpText("after", HELP)
    .action(
      action(async (context, paths: string[], options: ImportOptions) => {
        const project = await context.load();
        let categoryId = options.category;
        if (categoryId === undefined) {
          if (options.createCategory !== undefined) throw new CliUsageError("--create-category needs --category <id>");
          const ids = project.model.categories.map((c) => c.id);
          if (ids.length !== 1 || ids[0] === undefined) {
            throw new CliUsageError(
              ids.length === 0
                ? "the project has no category yet: give --category <id> --create-category <name>"
                : `choose a category with --category (${ids.join(", ")})`,
            );
          }
          categoryId = ids[0];
        } else if (options.createCategory === undefined && !project.index.categories.has(categoryId)) {
          throw new CatDocNotFoundError("category", categoryId, {
            message: `Category '${categoryId}' not found; create it with --create-category <name>, or choose one of: ${[...project.index.categories.keys()].join(", ") || "(none)"}`,
          });
        }
        // Paths are the user's, relative to the working directory; the import checks they lie in the project.
        const absolute = paths.map((path) => resolve(setup.cwd, path));
        const [{ importDocuments }, { renderImport }, store] = await Promise.all([
          import("../../domain/import/import-documents.js"),
          import("../render/import-text.js"),
          context.store(),
        ]);
        const report = await context.progress.around(`Importing ${paths.length} path(s) into '${categoryId}'`, () =>
          importDocuments(store, {
            paths: absolute,
            categoryId,
            ...(options.createCategory === undefined ? {} : { createCategory: { name: options.createCategory } }),
            ...(options.domain === undefined ? {} : { domain: options.domain }),
            ...(options.dryRun === true ? { dryRun: true } : {}),
            ...(options.force === true ? { force: true } : {}),
          }),
        );
        if (options.format === "json") context.json(report);
        else context.out(renderImport(report));
      }),
    );
}
