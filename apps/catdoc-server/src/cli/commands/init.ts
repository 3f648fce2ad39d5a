/** `catdoc init`: creates .catdoc/category.yaml (empty, valid) and .catdoc/config.yaml. */
import { CatDocConflictError } from "../../domain/errors.js";
import type { CommandRegistry } from "../program.js";

interface InitOptions {
  force?: boolean;
  name?: string;
}

export function registerInitCommand({ program, action }: CommandRegistry): void {
  program
    .command("init")
    .description("create .catdoc/category.yaml and .catdoc/config.yaml in the project root")
    .option("-f, --force", "replace an existing category.yaml and config.yaml")
    .option("-n, --name <name>", "project name written to config.yaml (default: the folder's name)")
    .addHelpText("after", "\nFails (exit 1) when the project already has .catdoc/category.yaml, unless --force.")
    .action(
      action(async (context, options: InitOptions) => {
        let result;
        try {
          result = await (
            await context.store()
          ).init({
            ...(options.force === true ? { force: true } : {}),
            ...(options.name === undefined ? {} : { projectName: options.name }),
          });
        } catch (error) {
          if (error instanceof CatDocConflictError && "root" in error.details) {
            throw new CatDocConflictError(`CatDoc project already initialized at '${context.root}'. Use --force to replace it.`, {
              root: context.root,
            });
          }
          throw error;
        }
        context.out(`${result.overwritten ? "Reinitialized" : "Initialized"} CatDoc project at ${result.root}`);
        for (const file of result.files) context.out(`  wrote ${file}`);
      }),
    );
}
