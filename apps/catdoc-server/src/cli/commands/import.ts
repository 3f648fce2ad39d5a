/** `catdoc import <paths…>`: Markdown documents become objects of a category, references morphisms. */
import { resolve } from "node:path";
import { CliUsageError } from "../cli-errors.js";
import { formatOption } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface ImportOptions {
  format: "text" | "json";
  category?: string;
  createCategory?: string | boolean;
  applyProposals?: boolean;
  domain?: string;
  dryRun?: boolean;
  force?: boolean;
}

const SPELLING = { categoryId: "--category <id>", createCategory: "--create-category" };

const HELP = `
Each Markdown file (frontmatter id, title, domain, tags) becomes an object, with its identity,
pointing to its file with metadata.path. It goes to the category its frontmatter names
(category: <id>, or a domain: that is a category's id), else --category, else the project's
only category; a category that does not exist is created only with --create-category.
References to other objects (@object-id, [[wiki links]], relative links to imported files)
become morphisms named after the verb before them (covers @req-login → covers--<doc>--req-login;
references when there is none). References to objects of another category are proposed as
mappings of the functor between the two categories; --apply-proposals writes them when exactly
one functor joins them. Directories are searched recursively. Paths outside the project root
are refused. Importing again updates instead of duplicating: objects whose document changed keep
their values unless --force. -f is --format (the original CatDoc's -f, overwrite existing
objects, is --force).`;

export function registerImportCommand({ program, action, setup }: CommandRegistry): void {
  program
    .command("import")
    .description("import Markdown documents (files or directories) into the categories of category.yaml")
    .argument("<paths...>", "Markdown files or directories inside the project")
    .option("--category <id>", "category of documents whose frontmatter names none (default: the only category)")
    .option("--create-category [name]", "create the categories named that do not exist (name: --category's name)")
    .option("--apply-proposals", "write the proposed functor mappings (when one functor joins the two categories)")
    .option("-d, --domain <domain>", "domain of documents whose frontmatter names none (default: import.defaultDomain of config.yaml)")
    .option("--dry-run", "show what would change; write nothing")
    .option("--force", "overwrite title, domain and tags of existing objects with their documents' values")
    .addOption(formatOption(["text", "json"], "text"))
    .addHelpText("after", HELP)
    .action(
      action(async (context, paths: string[], options: ImportOptions) => {
        if (typeof options.createCategory === "string") {
          // `--create-category <a path>` would take the path for the name: refuse rather than import less.
          if (/[/\\]|\.(md|markdown)$/i.test(options.createCategory)) {
            throw new CliUsageError(
              `--create-category takes an optional category name, not a path ('${options.createCategory}'): put the paths before it, or write --create-category=<name>`,
            );
          }
          if (options.category === undefined) {
            throw new CliUsageError("--create-category <name> names the category of --category <id>: give --category too");
          }
        }
        // Paths are the user's, relative to the working directory; the import checks they lie in the project.
        const absolute = paths.map((path) => resolve(setup.cwd, path));
        const [{ importDocuments }, { ImportCategoryMissingError }, { renderImport }, store] = await Promise.all([
          import("../../domain/import/import-documents.js"),
          import("../../domain/import/place-documents.js"),
          import("../render/import-text.js"),
          context.store(),
        ]);
        const where = options.category === undefined ? "" : ` into '${options.category}'`;
        const report = await context.progress
          .around(`Importing ${paths.length} path(s)${where}`, () =>
            importDocuments(store, {
              paths: absolute,
              ...(options.category === undefined ? {} : { categoryId: options.category }),
              ...(options.createCategory === undefined
                ? {}
                : { createCategory: typeof options.createCategory === "string" ? { name: options.createCategory } : true }),
              ...(options.applyProposals === true ? { applyProposals: true } : {}),
              spelling: SPELLING,
              ...(options.domain === undefined ? {} : { domain: options.domain }),
              ...(options.dryRun === true ? { dryRun: true } : {}),
              ...(options.force === true ? { force: true } : {}),
            }),
          )
          .catch((error: unknown) => {
            // No category to put documents in: the command line must name one (exit 2).
            throw error instanceof ImportCategoryMissingError ? new CliUsageError(error.message) : error;
          });
        if (options.format === "json") context.json(report);
        else context.out(renderImport(report));
      }),
    );
}
