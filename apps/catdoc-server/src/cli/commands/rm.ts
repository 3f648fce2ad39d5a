/** `catdoc rm <kind> <id> [--cascade]`: removes a category, object, morphism, functor or natural transformation. */
import type { CommandRegistry } from "../program.js";
import { EDIT_HELP, addWriteOptions, kindArgument, runEdit } from "../edit-options.js";
import type { WriteOptions } from "../edit-options.js";
import type { EditKind } from "../../domain/authoring/edit-request.js";

export function registerRmCommand({ program, action }: CommandRegistry): void {
  const command = program
    .command("rm")
    .description("remove a category, object, morphism, functor or nt")
    .addArgument(kindArgument())
    .argument("<id>", "what to remove")
    .option("--cascade", "also remove what refers to it (morphisms, mapping entries, components, natural transformations)");
  addWriteOptions(command)
    .addHelpText(
      "after",
      "\nWithout --cascade, a removal that would leave references behind is refused (exit 1, nothing written).\n" +
        "An object's identity and its endomorphisms go with it. One mapping entry: `catdoc map <kind> <id> <from> --remove`.\n" +
        EDIT_HELP,
    )
    .action(
      action(async (context, kind: EditKind, id: string, options: WriteOptions & { cascade?: boolean }) => {
        await runEdit(context, { op: "remove", kind, id, ...(options.cascade === true ? { cascade: true } : {}) }, options);
      }),
    );
}
