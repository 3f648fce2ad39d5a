/**
 * local_extract: structured data out of files — frontmatter fields (YAML), regex matches
 * (time-bounded), exports/imports (TS/JS: the TypeScript compiler API; the other languages of
 * core's code-analysis layer: tree-sitter), outlines (headings, GSD blocks, symbols) — and, with a
 * model, summaries of prose or anything sent with engine "model". Exports and imports of a file in
 * no supported language are refused (the supported ones named) unless engine is "model".
 */
import { READ_ONLY, defineTool, lazySchema, ToolError, type ToolContext, type ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import {
  extractExports,
  extractFrontmatter,
  extractImports,
  extractPatterns,
  extractStructure,
  hasOutline,
  type ExtractFormat,
  type ExtractItem,
} from "../domain/extract/extract-file.js";
import { substance, tooShort } from "../domain/model/answer-gate.js";
import { clip, jsonTaskMessages, numbered } from "../domain/model/prompts.js";
import {
  extractDataSchema,
  extractItemSchema,
  SHORT_ANSWER_BOUNDS,
  SUMMARY_SCHEMA,
  type ExtractTask,
} from "../domain/model/task-schemas.js";
import type { TextFile } from "../domain/paths/path-guard.js";
import { compilePatterns } from "../domain/regex/bounded-regex.js";
import { analyzerFor, unsupportedLanguageError } from "../domain/analyze/code-languages.js";
import { extractCodeExports, extractCodeImports, extractCodeStructure } from "../domain/extract/code-extract.js";
import { estimateTextTokens } from "../domain/tokens.js";
import type { LocalModelRuntime } from "../runtime.js";
import {
  boundedArray,
  boundedJsonObject,
  boundedString,
  closedObject,
  EngineChoiceSchema,
  FilesSchema,
  contractOutput,
} from "./contract.js";
import { chooseEngine } from "./engine-choice.js";
import type { Json, TaskOutcome } from "./task-response.js";
import { checkAgainstSchema, readFiles } from "./read-files.js";
import { itemProgress, ModelTally, runTask } from "./run-task.js";

const TASKS = ["pattern_match", "frontmatter", "exports", "imports", "structure"] as const;

// Listed with few words: the server's instructions say the rest once (paths, engine, levels).
const input = z.object({
  task_type: z.enum(TASKS),
  files: FilesSchema,
  extract: closedObject({
    // pattern_match: regexes, plain or /body/flags, matched per line
    patterns: boundedArray(boundedString(1000), 50, 1).optional(),
    // frontmatter: dotted paths; all fields when absent
    fields: boundedArray(boundedString(200), 100).optional(),
    // json (default): an object per file; list: strings
    format: z.enum(["json", "list"]).optional(),
    // structure: a model summary of each file too
    summarize: z.boolean().optional(),
  }).optional(),
  schema: boundedJsonObject().optional().describe("JSON Schema of data"),
  engine: EngineChoiceSchema,
});

const item = z.object({
  found: z.boolean(),
  data: z
    .unknown()
    .describe(
      "json: an object (frontmatter fields; pattern → matches; module → imported names; {outline}) or the export names; list: strings",
    ),
  error: z.string().optional(),
  summary: z.string().optional(),
  line_numbers: z
    .array(z.number().int().nullable())
    .optional()
    .describe("standard: the line of each data entry, in data order (null: field absent)"),
  file: z.object({ path: z.string(), bytes: z.number().int(), tokens_estimate: z.number().int() }).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});

const counts = z
  .object({
    files: z.number().int().describe("files read"),
    found: z.number().int().describe("files where something was found"),
    entries: z.number().int().describe("data entries over all files: fields present, matches, exports, imported modules, outline items"),
    failed: z.number().int().optional().describe("files with an error (see error); absent when none"),
  })
  .describe("minimal: what the call found, in numbers");

const output = lazySchema(() =>
  contractOutput(
    z.object({
      counts,
      results: z
        .record(z.string(), item)
        .optional()
        .describe("standard: per file as given, found and data (+ line_numbers); full adds file and details"),
    }),
  ),
);

const MODEL_TASK: Record<ExtractTask, string> = {
  frontmatter:
    "Extract ONLY the requested fields from the YAML frontmatter of the file. If a field is missing, use null. Set found to false when the file has no frontmatter.",
  pattern_match:
    "For each regular expression (the keys of data), list the texts in the file that match it. Set found to false when nothing matches.",
  exports: "List the names the module exports. Set found to false when it exports nothing.",
  imports: "Map each module the file imports to the names it imports from it. Set found to false when it imports nothing.",
  structure: "Outline the file: its headings, sections or top-level symbols, each with its nesting level (1 = top).",
};

export function localExtractTool(runtime: LocalModelRuntime): ToolDefinition {
  return defineTool({
    name: "local_extract",
    title: "Extract structured data from files",
    description: ["Frontmatter fields, regex matches, code exports or imports, or outlines of files, without reading them."].join(" "),
    input,
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    // The data is the answer: without response_level, answer at standard (minimal is the counts alone).
    responseLevel: "standard",
    timeoutMs: runtime.config.timeoutMs,
    handler: (args, ctx) => runTask(runtime, "local_extract", ctx, () => extract(runtime, args, ctx)),
  });
}

async function extract(runtime: LocalModelRuntime, args: z.infer<typeof input>, ctx: ToolContext) {
  const task = args.task_type;
  const format: ExtractFormat = args.extract?.format ?? "json";
  const patterns = args.extract?.patterns ?? [];
  if (task === "pattern_match" && patterns.length === 0) {
    throw new ToolError("INVALID_INPUT", "pattern_match needs extract.patterns (one or more regexes).", {
      details: { field: "extract.patterns" },
    });
  }
  const specs = task === "pattern_match" ? compilePatterns(patterns, "extract.patterns") : [];
  const files = await readFiles(runtime, args.files, ctx.signal);
  const summarize = task === "structure" && args.extract?.summarize === true;
  const needsCode = task === "exports" || task === "imports";
  const unsupported = files
    .filter((f) => (needsCode ? !analyzerFor(f.given) : task === "structure" && !hasOutline(f.given)))
    .map((f) => f.given);
  // Exports and imports are exact or refused: the model reads them only when asked to.
  if (needsCode && unsupported.length > 0 && args.engine !== "model") throw unsupportedLanguageError(task, unsupported);
  chooseEngine(
    args.engine,
    {
      deterministicGap:
        unsupported.length > 0
          ? `${task} of files that are neither Markdown nor code in a supported language (${unsupported.join(", ")})`
          : undefined,
      needsJudgment: summarize ? "a summary of each file (structure with summarize)" : undefined,
    },
    runtime.model,
  );
  const tally = new ModelTally();
  const tallied = { files: files.length, found: 0, entries: 0, failed: 0 };
  const standard: Record<string, Json> = {};
  const full: Record<string, Json> = {};
  const problems: string[] = [];
  /** Data the exact engines produced, for the check against the caller's schema. */
  const exact: [string, unknown][] = [];
  for (const [index, file] of files.entries()) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const useModel = args.engine === "model" || unsupported.includes(file.given);
    const result = useModel
      ? await modelItem(runtime, task, format, file, args, tally, ctx)
      : await deterministicItem(runtime, task, format, file, args.extract?.fields, patterns, specs, ctx.signal);
    if (!useModel) exact.push([file.given, result.data]);
    if (summarize) {
      const messages = jsonTaskMessages(
        "summarizer",
        "Summarize this file in at most three sentences: what it is for and what it contains.",
        [
          { label: "FILE", text: file.given },
          { label: "CONTENT", text: clip(file.text, runtime.config.maxInputChars) },
        ],
        SUMMARY_SCHEMA,
      );
      result.summary = tally.add(
        await runtime.model.json<{ summary: string }>(
          {
            messages,
            schema: SUMMARY_SCHEMA,
            grammarBounds: SHORT_ANSWER_BOUNDS,
            // The gate (answer-gate.ts): an empty summary of a file with content is retried, then refused.
            check: (value) => (tooShort(value.summary, 10) ? "the summary is empty: summarise the file in a sentence" : undefined),
          },
          ctx.signal,
        ),
      ).summary;
    }
    if (result.error) problems.push(`${file.given}: ${result.error}`);
    tallied.found += result.found ? 1 : 0;
    tallied.entries += entryCount(task, result);
    tallied.failed += result.error ? 1 : 0;
    standard[file.given] = {
      found: result.found,
      data: result.data,
      ...(result.error ? { error: result.error } : {}),
      ...(result.summary !== undefined ? { summary: result.summary } : {}),
      ...(result.lineNumbers ? { line_numbers: result.lineNumbers } : {}),
    };
    full[file.given] = {
      file: { path: file.relative, bytes: file.bytes, tokens_estimate: estimateTextTokens(file.text) },
      ...(result.details ? { details: result.details } : {}),
    };
    itemProgress(ctx, files.length, index + 1, `extracted ${task} from ${file.given}`);
  }
  const usage = tally.usage(runtime.model.name);
  const engine = usage ? "model" : "deterministic";
  const schemaCheck = args.schema && exact.length > 0 ? await checkAgainstSchema(runtime, args.schema, exact, ctx.signal) : undefined;
  return {
    engine,
    data: {
      minimal: {
        counts: {
          files: tallied.files,
          found: tallied.found,
          entries: tallied.entries,
          ...(tallied.failed > 0 ? { failed: tallied.failed } : {}),
        },
      },
      standard: { results: standard },
      full: { results: full },
    },
    inputChars: files.reduce((sum, f) => sum + f.text.length, 0),
    problems,
    ...(schemaCheck ? { schemaCheck } : {}),
    ...(usage ? { model: usage } : {}),
  } satisfies TaskOutcome;
}

/** How many entries an item's data holds (the lines found, else counted from the data the model gave). */
function entryCount(task: ExtractTask, item: ExtractItem): number {
  if (item.lineNumbers) return item.lineNumbers.filter((line) => line !== null).length;
  const data = item.data;
  if (Array.isArray(data)) return data.length;
  if (data === null || typeof data !== "object") return 0;
  const values = Object.values(data as Record<string, unknown>);
  switch (task) {
    case "pattern_match":
      return values.reduce<number>((sum, matches) => sum + (Array.isArray(matches) ? matches.length : 0), 0);
    case "structure": {
      const outline = (data as { outline?: unknown }).outline;
      return Array.isArray(outline) ? outline.length : 0;
    }
    default:
      return values.filter((value) => value !== null && value !== undefined).length;
  }
}

async function deterministicItem(
  runtime: LocalModelRuntime,
  task: ExtractTask,
  format: ExtractFormat,
  file: TextFile,
  fields: readonly string[] | undefined,
  patterns: readonly string[],
  specs: ReturnType<typeof compilePatterns>,
  signal: AbortSignal,
): Promise<ExtractItem & { summary?: string }> {
  switch (task) {
    case "frontmatter":
      return extractFrontmatter(file, fields, format, runtime.parsers, signal);
    case "pattern_match":
      return extractPatterns(file, patterns, specs, format, runtime.regex, signal);
    case "exports":
      return analyzerFor(file.given) === "tree-sitter" ? extractCodeExports(file, signal) : extractExports(file);
    case "imports":
      return analyzerFor(file.given) === "tree-sitter" ? extractCodeImports(file, format, signal) : extractImports(file, format);
    case "structure":
      return analyzerFor(file.given) === "tree-sitter"
        ? extractCodeStructure(file, format, signal)
        : extractStructure(file, format, runtime.parsers, signal);
  }
}

async function modelItem(
  runtime: LocalModelRuntime,
  task: ExtractTask,
  format: ExtractFormat,
  file: TextFile,
  args: z.infer<typeof input>,
  tally: ModelTally,
  ctx: ToolContext,
): Promise<ExtractItem & { summary?: string }> {
  const fields = args.extract?.fields;
  const patterns = args.extract?.patterns;
  const schema = extractItemSchema(args.schema ?? extractDataSchema(task, format, fields, patterns));
  const parts = [
    { label: "FILE", text: file.given },
    ...(fields?.length ? [{ label: "EXTRACT THESE FIELDS", text: fields.join(", ") }] : []),
    ...(patterns?.length ? [{ label: "PATTERNS", text: patterns.join("\n") }] : []),
    { label: "FILE CONTENT (line numbers added)", text: numbered(file.text, runtime.config.maxInputChars) },
  ];
  const messages = jsonTaskMessages("data extraction tool", MODEL_TASK[task], parts, schema);
  // The gate (answer-gate.ts): "found" with nothing in it ("", [], {}, nulls) is retried, then
  // refused; a lone boolean or number is an answer (a flag: false).
  const answer = await runtime.model.json<{ found: boolean; data: unknown }>(
    {
      messages,
      schema,
      check: (item) =>
        item.found && substance(item.data) === 0
          ? "the answer says found but holds nothing: give what the file has, or found false"
          : undefined,
    },
    ctx.signal,
  );
  const value = tally.add(answer);
  return { found: value.found, data: value.data };
}
