/** `catdoc add <kind> <id> [fields]`: adds a category, object, morphism, functor or natural transformation. */
import type { CommandRegistry } from "../program.js";
import { EDIT_HELP, addFieldOptions, addWriteOptions, fieldsOf, kindArgument, runEdit } from "../edit-options.js";
import type { FieldOptions, WriteOptions } from "../edit-options.js";
import type { EditKind } from "../../domain/authoring/edit-request.js";

export function registerAddCommand({ program, action }: CommandRegistry): void {
  const command = program
    .command("add")
    .description("add a category, object, morphism, functor or nt (validated before it is saved)")
    .addArgument(kindArgument())
    .argument("<id>", "the new id");
  addWriteOptions(addFieldOptions(command))
    .addHelpText(
      "after",
      "\nExamples:\n  catdoc add category design --name Design\n  catdoc add object des-login --category design --title Login --domain design\n" +
        "  catdoc add morphism d1 --category design --name refines --source des-login --target des-session\n" +
        "  catdoc add functor D --name 'designed by' --source-category reqs --target-category design\n" +
        "An object gets its identity id-<object>. Map a functor's entries with `catdoc map`.\n" +
        EDIT_HELP,
    )
    .action(
      action(async (context, kind: EditKind, id: string, options: FieldOptions & WriteOptions) => {
        await runEdit(context, { op: "add", kind, id, fields: fieldsOf(options) }, options);
      }),
    );
}
