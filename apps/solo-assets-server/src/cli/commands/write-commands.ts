/** save, delete, reindex: changing the library from the command line. */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { z } from "zod";
import { openSoloServices } from "../../services.js";
import { TestCaseSchema } from "../../tools/output-schemas.js";
import { collect, withServices } from "../cli-setup.js";
import type { CliSetup } from "../cli-setup.js";

interface SaveOptions {
  name: string;
  description: string;
  tag: string[];
  dependency: string[];
  tests?: string;
  skipTests?: boolean;
  json?: boolean;
}

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
    .action((file: string, options: SaveOptions) =>
      withServices(setup, openSoloServices, async (services) => {
        const code = await readFile(file, "utf8");
        const tests = options.tests ? z.array(TestCaseSchema).parse(JSON.parse(await readFile(options.tests, "utf8"))) : [];
        const saved = await services.library.save(
          { name: options.name, code, description: options.description, tags: options.tag, dependencies: options.dependency, testCases: tests, skipTests: options.skipTests === true },
          { signal: new AbortController().signal, progress: (message) => void setup.io.stderr.write(`… ${message}\n`) },
        );
        const gate = saved.gate;
        if (options.json) {
          setup.io.stdout.write(`${JSON.stringify({ name: saved.function.name, version: saved.function.version, status: gate.status, gate }, null, 2)}\n`);
        } else {
          setup.io.stdout.write(`${saved.function.name} v${saved.function.version}: ${gate.status}\n`);
          for (const step of gate.steps) setup.io.stdout.write(`  ${step.step.padEnd(7)} ${step.status.padEnd(8)} ${step.summary}\n`);
          if (gate.rejection?.details) setup.io.stdout.write(`\n${gate.rejection.details}\n`);
        }
        if (gate.status === "broken") state.exitCode = 1;
      }),
    );

  program
    .command("delete")
    .description("remove a function from the library (its versions stay in the history)")
    .argument("<name>", "the function's name")
    .action((name: string) =>
      withServices(setup, openSoloServices, async (services) => {
        const deleted = await services.library.delete(name);
        setup.io.stdout.write(`deleted ${deleted.name} (${deleted.versionsKept} version(s) kept in the history)\n`);
      }),
    );

  program
    .command("reindex")
    .description("give every function a vector of the current embedding model (after changing the embedder)")
    .option("--all", "re-embed every function, not only missing or outdated vectors")
    .action((options: { all?: boolean }) =>
      withServices(setup, openSoloServices, async (services) => {
        const outcome = await services.library.reindex({
          all: options.all === true,
          progress: (done, total) => void setup.io.stderr.write(`… ${done}/${total}\n`),
        });
        setup.io.stdout.write(`${outcome.model} (${outcome.dimension}): embedded ${outcome.embedded}, ${outcome.upToDate} already up to date\n`);
      }),
    );
}
