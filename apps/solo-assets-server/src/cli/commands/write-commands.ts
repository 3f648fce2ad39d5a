/**
 * save, delete, reindex: changing the library from the command line. Only the definitions live
 * here; each action imports its implementation (write-actions.ts) when run.
 */
import type { Command } from "commander";
import { collect } from "../cli-setup.js";
import type { CliSetup } from "../cli-setup.js";
import type { ExportOptions, ReindexOptions, SaveOptions } from "./write-actions.js";

const actions = () => import("./write-actions.js");

/** `state.exitCode` becomes the process's exit status (save: 1 when the gate rejected the code). */
export function registerWriteCommands(program: Command, setup: CliSetup, state: { exitCode: number }): void {
  program
    .command("save")
    .description("run a Python file's function through the quality gate and store it")
    .argument("<file>", "the Python source file")
    .requiredOption("--name <name>", "the function's name (as after `def`)")
    .requiredOption("--description <text>", "what it does (used for search)")
    .option("--tag <tag>", "a tag (repeatable)", collect, [])
    .option("--dependency <requirement>", "a PyPI requirement the code imports (repeatable)", collect, [])
    .option("--tests <file>", 'a JSON file with test cases: [{"input": {...}, "expected": ...}] or assert strings')
    .option("--skip-tests", "store without running tests (status unverified)")
    .option("--json", "print the gate report as JSON")
    .action(async (file: string, options: SaveOptions) => (await actions()).save(setup, state, file, options));

  program
    .command("delete")
    .description("remove a function from the library (its versions stay in the history)")
    .argument("<name>", "the function's name")
    .action(async (name: string) => (await actions()).remove(setup, name));

  program
    .command("export")
    .description(
      "write functions, with the library functions they import, as one Python module (and requirements.txt) into a folder of this project",
    )
    .argument("<names...>", "the functions' names")
    .requiredOption("--to <dir>", "the folder, inside the current directory")
    .option("--module <name>", "the module's name without .py (default solo_lib)")
    .option("--replace", "only these functions (a re-export otherwise keeps those exported before)")
    .option("--json", "print JSON")
    .action(async (names: string[], options: ExportOptions) => (await actions()).exportTo(setup, names, options));

  program
    .command("reindex")
    .description(
      "give every function a vector of the current embedding model (after changing the embedder), and a fingerprint for the duplicate check where an older library has none",
    )
    .option("--all", "re-embed every function, not only missing or outdated vectors")
    .action(async (options: ReindexOptions) => (await actions()).reindex(setup, options));
}
