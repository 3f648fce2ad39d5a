/**
 * status, list, search, get, history: reading the library from the command line. Only the
 * definitions live here; each action imports its implementation (read-actions.ts) when run.
 */
import type { Command } from "commander";
import { FUNCTION_STATUSES } from "../../domain/gate/gate-report.js";
import { collect, oneOf, positiveInt } from "../cli-setup.js";
import type { CliSetup } from "../cli-setup.js";
import type { GetOptions, HistoryOptions, ListOptions, SearchOptions, StatusOptions } from "./read-actions.js";

const actions = () => import("./read-actions.js");

export function registerReadCommands(program: Command, setup: CliSetup): void {
  program
    .command("status")
    .description("show the library: database path, counts, vectors, processes using it, embedder, critic and the gate's tools")
    .option("--json", "print JSON")
    .action(async (options: StatusOptions) => (await actions()).status(setup, options));

  program
    .command("list")
    .description("list functions, most recently saved first")
    .option("--status <status>", "active | broken | unverified", oneOf("--status", FUNCTION_STATUSES))
    .option("--tag <tag>", "only functions with this tag (repeatable)", collect, [])
    .option("--text <text>", "only functions whose name or description contains this")
    .option("--limit <n>", "at most this many", positiveInt("--limit"), 100)
    .option("--json", "print JSON")
    .action(async (options: ListOptions) => (await actions()).list(setup, options));

  program
    .command("search")
    .description("search functions by meaning and keywords")
    .argument("<query...>", "what the function should do")
    .option("--limit <n>", "how many results", positiveInt("--limit"), 5)
    .option("--tag <tag>", "only functions with this tag (repeatable)", collect, [])
    .option("--include-broken", "also show functions whose last save failed the gate")
    .option("--json", "print JSON")
    .action(async (words: string[], options: SearchOptions) => (await actions()).search(setup, words, options));

  program
    .command("get")
    .description("print a function's code (the latest version, or --version N)")
    .argument("<name>", "the function's name")
    .option("--version <n>", "a specific version", positiveInt("--version"))
    .option("--inline", "one module: the code with the library functions it imports (from solo_lib) inlined")
    .option("--json", "print the function as JSON, gate report included")
    .action(async (name: string, options: GetOptions) => (await actions()).get(setup, name, options));

  program
    .command("history")
    .description("list a function's versions, newest first")
    .argument("<name>", "the function's name")
    .option("--json", "print JSON")
    .action(async (name: string, options: HistoryOptions) => (await actions()).history(setup, name, options));
}
