/**
 * What the authoring commands (commands/add.ts, update.ts, rm.ts, rename.ts, map.ts) share: the
 * kind argument, the field options, --force / --dry-run / --format, turning options into the
 * domain's edit request (domain/authoring/edit-request.ts, whose field check makes a wrong
 * option bad usage, exit 2) and printing the outcome.
 */
import { Argument } from "commander";
import type { Command } from "commander";
import type { AuthoringOutcome } from "../domain/authoring/apply-edit.js";
import type { EditKind, EditRequest } from "../domain/authoring/edit-request.js";
import { CliUsageError } from "./cli-errors.js";
import type { CommandContext } from "./command-context.js";
import { formatOption } from "./option-parsers.js";

export const KINDS: readonly EditKind[] = ["category", "object", "morphism", "functor", "nt"];

export function kindArgument(kinds: readonly EditKind[] = KINDS): Argument {
  return new Argument("<kind>", "what to edit").choices(kinds);
}

export interface FieldOptions {
  category?: string;
  name?: string;
  title?: string;
  domain?: string;
  content?: string;
  source?: string;
  target?: string;
  composite?: string;
  sourceCategory?: string;
  targetCategory?: string;
  sourceFunctor?: string;
  targetFunctor?: string;
  meta?: string[];
}

export interface WriteOptions {
  force?: boolean;
  dryRun?: boolean;
  format: "table" | "json";
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The options that set fields, each for the kinds that have that field. */
export function addFieldOptions(command: Command): Command {
  return command
    .option("--category <id>", "object, morphism: the category it is in (add only)")
    .option("--name <text>", "category, morphism, functor, nt: its name")
    .option("--title <text>", "object: its title")
    .option("--domain <text>", "object: its domain")
    .option("--content <markdown>", "object: inline content")
    .option("--source <id>", "morphism: source object")
    .option("--target <id>", "morphism: target object")
    .option("--composite <ids>", "morphism: the path it composes, comma-separated (f,g is g∘f)")
    .option("--source-category <id>", "functor: source category (add only)")
    .option("--target-category <id>", "functor: target category (add only)")
    .option("--source-functor <id>", "nt: source functor (add only)")
    .option("--target-functor <id>", "nt: target functor (add only)")
    .option("--meta <key=value>", "object, morphism: a metadata entry (repeatable; key= removes it in update)", collect);
}

export function addWriteOptions(command: Command): Command {
  return command
    .option("--force", "save even if the edit breaks a law (the violations are printed)")
    .option("--dry-run", "show the changes, write nothing")
    .addOption(formatOption(["table", "json"], "table"));
}

const FIELD_KEYS: [keyof FieldOptions, string][] = [
  ["category", "category"],
  ["name", "name"],
  ["title", "title"],
  ["domain", "domain"],
  ["content", "content"],
  ["source", "source"],
  ["target", "target"],
  ["sourceCategory", "sourceCategory"],
  ["targetCategory", "targetCategory"],
  ["sourceFunctor", "sourceFunctor"],
  ["targetFunctor", "targetFunctor"],
];

/** The fields the options give (only those given). */
export function fieldsOf(options: FieldOptions): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [option, field] of FIELD_KEYS) if (options[option] !== undefined) fields[field] = options[option];
  if (options.composite !== undefined) fields["composite"] = options.composite.split(",").map((id) => id.trim());
  if (options.meta !== undefined) {
    const metadata: Record<string, unknown> = {};
    for (const entry of options.meta) {
      const at = entry.indexOf("=");
      if (at < 1) throw new CliUsageError(`--meta takes key=value, got '${entry}'`);
      const value = entry.slice(at + 1);
      metadata[entry.slice(0, at)] = value === "" ? null : value;
    }
    fields["metadata"] = metadata;
  }
  return fields;
}

/** Checks the request's fields (a wrong option is usage, exit 2), then runs it through the store. */
export async function runEdit(context: CommandContext, request: EditRequest, options: WriteOptions): Promise<void> {
  const [{ applyEdit }, { checkedFields }, { CatDocInputError }] = await Promise.all([
    import("../domain/authoring/apply-edit.js"),
    import("../domain/authoring/edit-request.js"),
    import("../domain/errors.js"),
  ]);
  if (request.op === "add" || request.op === "update") {
    try {
      checkedFields(request);
    } catch (error) {
      if (error instanceof CatDocInputError) throw new CliUsageError(error.message.replace(/^fields\./, "--"));
      throw error;
    }
  }
  const store = await context.store();
  const outcome = await applyEdit(store, request, { force: options.force === true, dryRun: options.dryRun === true });
  if (options.format === "json") context.json(outcome);
  else context.out(renderOutcome(outcome));
}

function renderOutcome(outcome: AuthoringOutcome): string {
  const lines = [...outcome.changes];
  for (const issue of outcome.violations) lines.push(`law broken (saved with --force): ${issue.code}: ${issue.message}`);
  for (const issue of outcome.gaps) lines.push(`open: ${issue.message}`);
  const count = `${outcome.changes.length} change${outcome.changes.length === 1 ? "" : "s"}`;
  if (outcome.dryRun) lines.push(`dry run: ${count}, nothing written`);
  else lines.push(outcome.written ? `${count} written to .catdoc/category.yaml` : "nothing to change");
  return lines.join("\n");
}

/** Long help shared by the commands. */
export const EDIT_HELP =
  "\nEvery edit is locked and atomic, keeps comments and key order, and is validated before it is saved:\n" +
  "one that adds a law violation is refused (exit 1, nothing written) unless --force. Unmapped objects\n" +
  "and morphisms of a functor are open gaps, printed and saved. Kinds: category, object, morphism,\n" +
  "functor, nt (natural transformation).";
