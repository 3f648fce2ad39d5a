/** `catdoc update <kind> <id> [fields]`: changes the named fields of a category, object, morphism, functor or natural transformation. */
import { CliUsageError } from "../cli-errors.js";
import type { CommandRegistry } from "../program.js";
import { EDIT_HELP, addFieldOptions, addWriteOptions, fieldsOf, kindArgument, runEdit } from "../edit-options.js";
import type { FieldOptions, WriteOptions } from "../edit-options.js";
import type { EditKind } from "../../domain/authoring/edit-request.js";

export function registerUpdateCommand({ program, action }: CommandRegistry): void {
  const command = program
    .command("update")
    .description("change fields of a category, object, morphism, functor or nt (validated before it is saved)")
    .addArgument(kindArgument())
    .argument("<id>", "what to change");
  addWriteOptions(addFieldOptions(command))
    .addHelpText(
      "after",
      "\nOnly the fields given change; --content '' removes an object's inline content. Ids change with `catdoc rename`,\n" +
        "mapping entries with `catdoc map`.\n" +
        EDIT_HELP,
    )
    .action(
      action(async (context, kind: EditKind, id: string, options: FieldOptions & WriteOptions) => {
        const fields = fieldsOf(options);
        // `--content ''` removes the inline content (as `--meta key=` removes a metadata entry).
        if (fields["content"] === "") fields["content"] = null;
        if (Object.keys(fields).length === 0) throw new CliUsageError("give a field to change (see --help)");
        await runEdit(context, { op: "update", kind, id, fields }, options);
      }),
    );
}
