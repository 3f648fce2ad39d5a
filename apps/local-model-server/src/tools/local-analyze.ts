/**
 * local_analyze: the structure of code — exports, functions with parameters, types, and
 * dependencies. TS/JS from the TypeScript compiler API (interfaces/types/enums; relative imports
 * resolved to files and followed to `depth`); Python, Go, Rust, Java and C# from core's
 * tree-sitter layer (classes, structs, traits … too; modules as imported, not followed). A file
 * in no supported language is refused, the supported ones named, unless engine is "model".
 */
import { READ_ONLY, defineTool, lazySchema, type ToolContext, type ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { analyzeWithDependencies, type AnalyzedFile } from "../domain/analyze/script-analysis.js";
import { jsonTaskMessages, numbered } from "../domain/model/prompts.js";
import { analyzeEntrySchema, type AnalyzeTask } from "../domain/model/task-schemas.js";
import type { PathGuard } from "../domain/paths/path-guard.js";
import { exportLabel } from "../domain/ts/exports.js";
import { analyzeCodeFile, analyzerFor, exportLines, qualifiedName, unsupportedLanguageError } from "../domain/analyze/code-languages.js";
import type { SourceAnalysis } from "@local-mcp/core/code-analysis";
import type { TextFile } from "../domain/paths/path-guard.js";
import { estimateTextTokens } from "../domain/tokens.js";
import type { LocalModelRuntime } from "../runtime.js";
import { boundedInt, EngineChoiceSchema, FilesSchema, contractOutput } from "./contract.js";
import { chooseEngine } from "./engine-choice.js";
import type { Json, TaskOutcome } from "./task-response.js";
import { readFiles } from "./read-files.js";
import { itemProgress, ModelTally, runTask } from "./run-task.js";

const TASKS = ["dependencies", "exports", "functions", "types"] as const;

const input = z.object({
  task_type: z.enum(TASKS),
  files: FilesSchema,
  // dependencies: levels of relative imports followed, 1 to 10, default 1
  depth: boundedInt(1, 10).optional(),
  engine: EngineChoiceSchema,
});

const importSchema = z.object({ from: z.string(), items: z.array(z.string()) });
const entry = z.object({
  exports: z.array(z.string()).optional(),
  imports: z.array(importSchema).optional(),
  functions: z
    .array(z.object({ name: z.string(), line: z.number().int().optional(), params: z.array(z.string()).optional() }))
    .optional()
    .describe("functions, minimal: names; standard adds line and params"),
  types: z
    .array(z.object({ name: z.string(), kind: z.string().optional(), line: z.number().int().optional() }))
    .optional()
    .describe("types, standard: name, kind and line"),
  dependencies: z
    .object({
      internal: z.array(z.string()).optional(),
      external: z.array(z.string()).optional(),
      unresolved: z.array(z.string()).optional(),
      outside: z.array(z.string()).optional(),
      modules: z.array(z.string()).optional().describe("not TS/JS: the modules as imported"),
    })
    .optional(),
  depth: z.number().int().optional(),
  lines: z.object({ exports: z.record(z.string(), z.number().int()).optional(), imports: z.array(z.number().int()).optional() }).optional(),
  file: z.object({ path: z.string(), bytes: z.number().int(), tokens_estimate: z.number().int() }).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});

const output = lazySchema(() =>
  contractOutput(
    z.object({
      types: z
        .array(z.string())
        .optional()
        .describe("types, minimal: the names declared in the files, in file order (which file and line: standard)"),
      analysis: z.record(z.string(), entry).optional().describe("per file (types: from standard)"),
    }),
  ),
);

export function localAnalyzeTool(runtime: LocalModelRuntime): ToolDefinition {
  return defineTool({
    name: "local_analyze",
    title: "Analyze code structure",
    description: ["Exports, functions, types or dependencies (to a depth) of code files, without reading them."].join(" "),
    input,
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    timeoutMs: runtime.config.timeoutMs,
    handler: (args, ctx) => runTask(runtime, "local_analyze", ctx, () => analyze(runtime, args, ctx)),
  });
}

async function analyze(runtime: LocalModelRuntime, args: z.infer<typeof input>, ctx: ToolContext): Promise<TaskOutcome> {
  const files = await readFiles(runtime, args.files, ctx.signal);
  const unsupported = files.filter((f) => !analyzerFor(f.given)).map((f) => f.given);
  // Exact or refused: the model reads code only when asked to.
  if (unsupported.length > 0 && args.engine !== "model") throw unsupportedLanguageError(`local_analyze ${args.task_type}`, unsupported);
  chooseEngine(args.engine, {}, runtime.model);
  const byModel = args.engine === "model" ? files : [];
  const exact = files.filter((f) => !byModel.includes(f));
  const depth = args.task_type === "dependencies" ? (args.depth ?? 1) : 1;
  const analyzed = await analyzeWithDependencies(
    exact.filter((f) => analyzerFor(f.given) === "typescript"),
    depth,
    runtime.guard,
    ctx.signal,
  );
  const coded: CodeFile[] = [];
  for (const file of exact.filter((f) => analyzerFor(f.given) === "tree-sitter"))
    coded.push({ file, depth: 0, analysis: await analyzeCodeFile(file, ctx.signal) });

  const minimal: Record<string, Json> = {};
  const standard: Record<string, Json> = {};
  /** types, minimal: the names over all files; a key per file would cost more than the names (25 paths ≈ 700 tokens). */
  const typeNames: string[] = [];
  const full: Record<string, Json> = {};
  // Files are keyed by their path relative to the root that holds them (an absolute path costs
  // its folders again in every key: 25 temporary paths ≈ 250 tokens of a minimal answer), or as
  // given when two roots hold the same relative path.
  const displayed = [...analyzed, ...coded].map((a) => runtime.guard.display(a.file.absolute));
  const ambiguous = new Set(displayed.filter((key, i) => displayed.indexOf(key) !== i));
  const keyOf = (a: { file: TextFile; depth: number }) => {
    const key = runtime.guard.display(a.file.absolute);
    return ambiguous.has(key) && a.depth === 0 ? a.file.given : key;
  };
  for (const a of analyzed) {
    const parts = renderAnalysis(args.task_type, a, runtime.guard);
    const key = keyOf(a);
    if (args.task_type === "types") typeNames.push(...a.analysis.types.map((t) => t.name));
    else minimal[key] = parts.minimal;
    standard[key] = parts.standard;
    full[key] = parts.full;
  }
  for (const c of coded) {
    const parts = renderCodeAnalysis(args.task_type, c);
    const key = keyOf(c);
    if (args.task_type === "types") typeNames.push(...c.analysis.types.map(qualifiedName));
    else minimal[key] = parts.minimal;
    standard[key] = parts.standard;
    full[key] = parts.full;
  }
  const tally = new ModelTally();
  for (const [index, file] of byModel.entries()) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const schema = analyzeEntrySchema(args.task_type);
    const messages = jsonTaskMessages(
      "code structure analyzer",
      MODEL_TASK[args.task_type],
      [
        { label: "FILE", text: file.given },
        { label: "FILE CONTENT (line numbers added)", text: numbered(file.text, runtime.config.maxInputChars) },
      ],
      schema,
    );
    minimal[file.given] = tally.add(await runtime.model.json<Json>({ messages, schema }, ctx.signal));
    full[file.given] = { file: { path: file.relative, bytes: file.bytes, tokens_estimate: estimateTextTokens(file.text) } };
    itemProgress(ctx, byModel.length, index + 1, `analysed ${file.given}`);
  }
  const usage = tally.usage(runtime.model.name);
  const read = new Map([...analyzed.map((a) => a.file), ...coded.map((c) => c.file), ...byModel].map((f) => [f.absolute, f.text.length]));
  return {
    engine: usage ? "model" : "deterministic",
    data: {
      minimal:
        args.task_type === "types" ? { types: typeNames, ...(byModel.length > 0 ? { analysis: minimal } : {}) } : { analysis: minimal },
      standard: { analysis: standard },
      full: { analysis: full },
    },
    inputChars: [...read.values()].reduce((sum, n) => sum + n, 0),
    ...(usage ? { model: usage } : {}),
  };
}

const MODEL_TASK: Record<AnalyzeTask, string> = {
  exports: "List the names this module exports.",
  dependencies: "List the modules this file imports, each with the names it imports.",
  functions: "List the functions and methods defined in this file, with the line where each starts and its parameter names.",
  types: "List the interfaces, type aliases and enums declared in this file, with their kind and line.",
};

function renderAnalysis(task: AnalyzeTask, a: AnalyzedFile, guard: PathGuard): { minimal: Json; standard: Json; full: Json } {
  const { analysis } = a;
  const exports = analysis.exports.map(exportLabel);
  const imports = analysis.imports.map((i) => ({ from: i.from, items: i.items }));
  const d = analysis.dependencies;
  const dependencies = { internal: d.internal.map((p) => guard.display(p)), external: d.external };
  /** Imports that lead nowhere under the roots: standard, with the imports themselves. */
  const unfollowed = {
    ...(d.unresolved.length > 0 ? { unresolved: d.unresolved } : {}),
    ...(d.outside.length > 0 ? { outside: d.outside } : {}),
  };
  // Each level holds only the analysis asked for: standard adds where it is (lines), full its details.
  switch (task) {
    case "exports":
      return {
        minimal: { exports },
        standard: { depth: a.depth, lines: { exports: Object.fromEntries(analysis.exports.map((e) => [exportLabel(e), e.line])) } },
        full: {
          file: fileOf(a),
          details: {
            exports: analysis.exports.map((e) => ({
              name: e.name,
              kind: e.kind,
              line: e.line,
              type_only: e.typeOnly,
              ...(e.from ? { from: e.from } : {}),
              ...(e.local ? { local: e.local } : {}),
            })),
          },
        },
      };
    case "dependencies":
      return {
        minimal: { dependencies },
        standard: { imports, dependencies: unfollowed, depth: a.depth, lines: { imports: analysis.imports.map((i) => i.line) } },
        full: {
          file: fileOf(a),
          details: { imports: analysis.imports.map((i) => ({ from: i.from, line: i.line, kind: i.kind, type_only: i.typeOnly })) },
        },
      };
    case "functions":
      return {
        minimal: { functions: analysis.functions.map((f) => ({ name: f.name })) },
        standard: { functions: analysis.functions.map((f) => ({ line: f.line, params: f.params })), depth: a.depth },
        full: {
          file: fileOf(a),
          details: {
            functions: analysis.functions.map((f) => ({
              name: f.name,
              kind: f.kind,
              async: f.async,
              exported: f.exported,
              param_types: f.paramTypes,
              returns: f.returns,
            })),
          },
        },
      };
    case "types":
      return {
        minimal: {},
        standard: { types: analysis.types.map((t) => ({ name: t.name, kind: t.kind, line: t.line })), depth: a.depth },
        full: { file: fileOf(a), details: { types: analysis.types.map((t) => ({ name: t.name, exported: t.exported })) } },
      };
  }
}

/** A file core's tree-sitter layer analysed (not followed: its modules are named as imported). */
interface CodeFile {
  file: TextFile;
  depth: number;
  analysis: SourceAnalysis;
}

/** The same levels as renderAnalysis, from the tree-sitter layer's answers (no export kinds, parameter types or resolved files). */
function renderCodeAnalysis(task: AnalyzeTask, c: CodeFile): { minimal: Json; standard: Json; full: Json } {
  const { analysis } = c;
  const about = {
    analyzer: "tree-sitter",
    language: analysis.language,
    ...(analysis.syntaxErrors.length > 0 ? { syntax_error_lines: analysis.syntaxErrors } : {}),
  };
  switch (task) {
    case "exports": {
      const lines = exportLines(analysis);
      return {
        minimal: { exports: analysis.exports },
        standard: {
          depth: c.depth,
          lines: { exports: Object.fromEntries(analysis.exports.flatMap((name) => (lines.has(name) ? [[name, lines.get(name)!]] : []))) },
        },
        full: { file: fileOf(c), details: about },
      };
    }
    case "dependencies":
      return {
        minimal: { dependencies: { modules: analysis.dependencies } },
        standard: { depth: c.depth },
        full: { file: fileOf(c), details: about },
      };
    case "functions":
      return {
        minimal: { functions: analysis.functions.map((f) => ({ name: qualifiedName(f) })) },
        standard: { functions: analysis.functions.map((f) => ({ line: f.line, params: f.params })), depth: c.depth },
        full: {
          file: fileOf(c),
          details: {
            ...about,
            functions: analysis.functions.map((f) => ({
              name: qualifiedName(f),
              kind: f.container === undefined ? "function" : "method",
              async: f.async,
              exported: f.exported,
            })),
          },
        },
      };
    case "types":
      return {
        minimal: {},
        standard: { types: analysis.types.map((t) => ({ name: qualifiedName(t), kind: t.kind, line: t.line })), depth: c.depth },
        full: {
          file: fileOf(c),
          details: { ...about, types: analysis.types.map((t) => ({ name: qualifiedName(t), exported: t.exported })) },
        },
      };
  }
}

function fileOf(a: { file: TextFile }): Json {
  return { path: a.file.relative, bytes: a.file.bytes, tokens_estimate: estimateTextTokens(a.file.text) };
}
