/** `catdoc rename <kind> <old> <new>`: renames an id everywhere it is used. */
import type { CommandRegistry } from "../program.js";
import { EDIT_HELP, addWriteOptions, kindArgument, runEdit } from "../edit-options.js";
import type { WriteOptions } from "../edit-options.js";
import type { EditKind } from "../../domain/authoring/edit-request.js";

export function registerRenameCommand({ program, action }: CommandRegistry): void {
  const command = program
    .command("rename")
    .description("rename an id everywhere it is used")
    .addArgument(kindArgument())
    .argument("<old>", "the id now")
    .argument("<new>", "the new id");
  addWriteOptions(command)
    .addHelpText(
      "after",
      "\nAn object's endpoints, functor mappings, components and review stamps follow it, and so does its identity\n" +
        "id-<object>; a morphism's mappings, components and composites; a category's functors; a functor's nts.\n" +
        "A new id that is taken is refused (exit 1, nothing written).\n" +
        EDIT_HELP,
    )
    .action(
      action(async (context, kind: EditKind, from: string, to: string, options: WriteOptions) => {
        await runEdit(context, { op: "rename", kind, id: from, newId: to }, options);
      }),
    );
}
