/** What save, delete and reindex do (write-commands.ts defines them). */
import { readFile } from "node:fs/promises";
import { ToolError } from "@local-mcp/core";
import { z } from "zod";
import { TestCaseSchema } from "../../tools/output-schemas.js";
import { withServices } from "../cli-services.js";
import type { CliSetup } from "../cli-setup.js";
import { progressLine } from "../progress-line.js";

export interface SaveOptions {
  name: string;
  description: string;
  tag: string[];
  dependency: string[];
  tests?: string;
  skipTests?: boolean;
  json?: boolean;
}

export interface ExportOptions {
  to: string;
  module?: string;
  replace?: boolean;
  json?: boolean;
}

export interface ReindexOptions {
  all?: boolean;
}

/** A file named on the command line; one that cannot be read is bad usage. */
async function readArgumentFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new ToolError("INVALID_INPUT", `Cannot read the ${what} '${path}': ${reason}.`, { suggestion: "Check the path." });
  }
}

const TestsFileSchema = z.array(TestCaseSchema);

async function readTests(path: string) {
  const text = await readArgumentFile(path, "tests file");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ToolError("INVALID_INPUT", `The tests file '${path}' is not JSON: ${(error as Error).message}.`, {
      suggestion: 'Write a JSON list: [{"input": {"arg": value}, "expected": value}] or assert statements as strings.',
    });
  }
  const checked = TestsFileSchema.safeParse(parsed);
  if (!checked.success) {
    const first = checked.error.issues[0];
    throw new ToolError(
      "INVALID_INPUT",
      `The tests file '${path}' is not a list of test cases${first ? ` (${first.path.join(".") || "top level"}: ${first.message})` : ""}.`,
      {
        suggestion: 'Write a JSON list: [{"input": {"arg": value}, "expected": value}] or assert statements as strings.',
      },
    );
  }
  return checked.data;
}

export async function save(setup: CliSetup, state: { exitCode: number }, file: string, options: SaveOptions): Promise<void> {
  const code = await readArgumentFile(file, "Python file");
  const tests = options.tests ? await readTests(options.tests) : [];
  await withServices(setup, async (services) => {
    const progress = progressLine(setup.io.stderr);
    let saved;
    try {
      saved = await services.library.save(
        {
          name: options.name,
          code,
          description: options.description,
          tags: options.tag,
          dependencies: options.dependency,
          testCases: tests,
          skipTests: options.skipTests === true,
        },
        { signal: new AbortController().signal, progress: (message) => progress.say(message) },
      );
    } finally {
      progress.clear();
    }
    const gate = saved.gate;
    if (options.json) {
      setup.io.stdout.write(
        `${JSON.stringify({ name: saved.function.name, version: saved.function.version, status: gate.status, gate }, null, 2)}\n`,
      );
    } else {
      setup.io.stdout.write(`${saved.function.name} v${saved.function.version}: ${gate.status}\n`);
      for (const step of gate.steps) setup.io.stdout.write(`  ${step.step.padEnd(7)} ${step.status.padEnd(8)} ${step.summary}\n`);
      if (gate.unverified) {
        const { code, message, suggestion } = gate.unverified;
        setup.io.stdout.write(`unverified: ${code}: ${message} — ${suggestion}\n`);
      }
      for (const warning of gate.warnings ?? []) setup.io.stdout.write(`warning: ${warning}\n`);
      if (gate.rejection?.details) setup.io.stdout.write(`\n${gate.rejection.details}\n`);
    }
    if (gate.status === "broken") state.exitCode = 1;
  });
}

export function exportTo(setup: CliSetup, names: string[], options: ExportOptions): Promise<void> {
  return withServices(setup, async (services) => {
    const { exportFunctions } = await import("../../domain/library/function-export.js");
    const { config } = services;
    const outcome = await exportFunctions(
      { db: services.library.db, python: config.python, env: config.toolEnv, projectRoot: config.projectRoot },
      { names, to: options.to, replace: options.replace === true, ...(options.module ? { module: options.module } : {}) },
    );
    if (options.json) {
      setup.io.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
      return;
    }
    const functions = outcome.functions.map((f) => `${f.name} v${f.version}`).join(", ");
    setup.io.stdout.write(`${outcome.module}: ${outcome.status} (${functions})\n`);
    for (const change of outcome.changes) setup.io.stdout.write(`  ${change}\n`);
    if (outcome.requirements) setup.io.stdout.write(`requirements: ${outcome.requirements}\n`);
    for (const warning of outcome.warnings) setup.io.stdout.write(`warning: ${warning}\n`);
  });
}

export function remove(setup: CliSetup, name: string): Promise<void> {
  return withServices(setup, async (services) => {
    const deleted = await services.library.delete(name);
    setup.io.stdout.write(`deleted ${deleted.name} (${deleted.versionsKept} version(s) kept in the history)\n`);
  });
}

export function reindex(setup: CliSetup, options: ReindexOptions): Promise<void> {
  return withServices(setup, async (services) => {
    const progress = progressLine(setup.io.stderr);
    let outcome;
    try {
      outcome = await services.library.reindex({ all: options.all === true, progress: (done, total) => progress.say(`${done}/${total}`) });
    } finally {
      progress.clear();
    }
    setup.io.stdout.write(
      `${outcome.model} (${outcome.dimension}): embedded ${outcome.embedded}, ${outcome.upToDate} already up to date` +
        (outcome.fingerprinted > 0 ? `; fingerprinted ${outcome.fingerprinted} older function(s) for the duplicate check` : "") +
        "\n",
    );
  });
}
