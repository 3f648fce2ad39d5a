/** `catdoc map functor|nt <id> <from> [to] [--remove]`: sets one functor mapping entry or natural-transformation component. */
import { CliUsageError } from "../cli-errors.js";
import type { CommandRegistry } from "../program.js";
import { EDIT_HELP, addWriteOptions, kindArgument, runEdit } from "../edit-options.js";
import type { WriteOptions } from "../edit-options.js";
import type { EditKind } from "../../domain/authoring/edit-request.js";

export function registerMapCommand({ program, action }: CommandRegistry): void {
  const command = program
    .command("map")
    .description("set a functor's image of an object or morphism, or a natural transformation's component")
    .addArgument(kindArgument(["functor", "nt"]))
    .argument("<id>", "the functor or nt")
    .argument("<from>", "functor: a source object or morphism; nt: an object A of the source category")
    .argument("[to]", "functor: its image; nt: the morphism η_A")
    .option("--remove", "remove the entry instead");
  addWriteOptions(command)
    .addHelpText(
      "after",
      "\nA morphism maps only to a candidate image: an arrow between the images of its endpoints (for an identity,\n" +
        "the identity of the image); without <to>, its only candidate. Otherwise the candidates are listed (exit 1).\n" +
        "`catdoc validate` names them for every unmapped morphism (FUNCTOR_UNMAPPED_MORPHISM).\n" +
        EDIT_HELP,
    )
    .action(
      action(
        async (context, kind: EditKind, id: string, from: string, to: string | undefined, options: WriteOptions & { remove?: boolean }) => {
          if (options.remove === true) {
            if (to !== undefined) throw new CliUsageError("give <to> or --remove, not both");
            await runEdit(context, { op: "remove", kind, id, from }, options);
            return;
          }
          if (kind === "nt" && to === undefined) throw new CliUsageError("an nt component needs <to>, the morphism η_A");
          await runEdit(context, { op: "map", kind, id, from, ...(to === undefined ? {} : { to }) }, options);
        },
      ),
    );
}
