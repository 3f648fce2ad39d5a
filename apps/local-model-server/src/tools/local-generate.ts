/**
 * local_generate: fills a Handlebars template — the shipped GSD templates (plan, summary, state,
 * verification), custom ones from templates_dir, or an inline template — strictly: a variable the
 * template uses and the call does not give is INVALID_INPUT naming it. With output_path the file
 * is written atomically under the roots, and minimal responses leave the content out.
 */
import { DESTRUCTIVE_IDEMPOTENT, defineTool, lazySchema, ToolError, type ToolContext, type ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { countLines } from "../domain/text/lines.js";
import { substance, type AnswerCheck } from "../domain/model/answer-gate.js";
import { jsonTaskMessages } from "../domain/model/prompts.js";
import { GENERATED_SCHEMA } from "../domain/model/task-schemas.js";
import { isInlineTemplate, type TemplateInfo } from "../domain/templates/template-store.js";
import type { LocalModelRuntime } from "../runtime.js";
import { boundedJsonObject, boundedString, EngineChoiceSchema, contractOutput } from "./contract.js";
import { ModelTally, runTask } from "./run-task.js";
import type { TaskOutcome } from "./task-response.js";

const TASKS = ["summary", "plan", "verification", "state_update"] as const;
const DEFAULT_TEMPLATE: Record<(typeof TASKS)[number], string> = {
  summary: "summary",
  plan: "plan",
  verification: "verification",
  state_update: "state",
};

const input = z.object({
  // the shipped template, when template is omitted
  task_type: z.enum(TASKS).optional(),
  // a template name or inline Handlebars
  template: boundedString(200_000).optional(),
  variables: boundedJsonObject().optional(),
  // written there; minimal then leaves the content out
  output_path: boundedString(4096).optional(),
  engine: EngineChoiceSchema,
});

const output = lazySchema(() =>
  contractOutput(
    z.object({
      content: z.string().optional().describe("The generated text (at minimal only when not written to a file)"),
      written: z.boolean(),
      path: z.string().optional(),
      template: z.string().optional(),
      bytes: z.number().int().optional(),
      lines: z.number().int().optional(),
      template_source: z.enum(["shipped", "custom", "inline"]).optional(),
      variables_given: z.array(z.string()).optional(),
    }),
  ),
);

export function localGenerateTool(runtime: LocalModelRuntime): ToolDefinition {
  return defineTool({
    name: "local_generate",
    title: "Generate a file from a template",
    description: ["Fills a GSD template or inline Handlebars with your variables, strictly; returns or writes the text."].join(" "),
    input,
    get output() {
      return output();
    },
    annotations: DESTRUCTIVE_IDEMPOTENT,
    timeoutMs: runtime.config.timeoutMs,
    handler: (args, ctx) => runTask(runtime, "local_generate", ctx, () => generate(runtime, args, ctx)),
  });
}

async function generate(runtime: LocalModelRuntime, args: z.infer<typeof input>, ctx: ToolContext): Promise<TaskOutcome> {
  const chosen = args.template ?? (args.task_type ? DEFAULT_TEMPLATE[args.task_type] : undefined);
  if (chosen === undefined)
    throw new ToolError("INVALID_INPUT", "Give a template (a name or inline text) or a task_type.", { details: { field: "template" } });
  const variables = args.variables ?? {};
  const inline = isInlineTemplate(chosen);
  const loaded = inline ? undefined : await runtime.templates.load(chosen);
  const info: Pick<TemplateInfo, "name" | "required" | "defaults"> & { source: "shipped" | "custom" | "inline" } = loaded?.info ?? {
    name: "inline",
    required: [],
    defaults: {},
    source: "inline",
  };
  const text = loaded?.text ?? chosen;
  // Resolved before any work: a forbidden output path fails the call without writing anything.
  const target = args.output_path === undefined ? undefined : await runtime.guard.resolveForWrite(args.output_path);

  const tally = new ModelTally();
  let content: string;
  if (args.engine === "model") {
    runtime.model.assertConfigured('engine "model"');
    const messages = jsonTaskMessages(
      "template filler. Replace every {{variable}} of the template with its value; for lists, repeat the block per item. Add nothing the template does not specify",
      "Fill the template.",
      [
        { label: "TEMPLATE", text },
        { label: "VARIABLES", text: JSON.stringify({ ...info.defaults, ...variables }, null, 2) },
      ],
      GENERATED_SCHEMA,
    );
    const maxTokens = runtime.model.config.kind === "none" ? 1024 : runtime.model.config.maxTokens;
    const answer = await runtime.model.json<{ content: string }>(
      {
        messages,
        schema: GENERATED_SCHEMA,
        maxTokens,
        grammarBounds: { maxStringLength: maxTokens * 4, maxArrayItems: 20 },
        check: filledCheck(text),
      },
      ctx.signal,
    );
    content = tally.add(answer).content;
  } else {
    // In a parser thread: a template's nested {{#each}} can multiply without bound; the deadline stops it.
    const options = { name: info.name, required: info.required, defaults: info.defaults };
    content = await runtime.parsers.run(
      { kind: "render", text, variables, options },
      { signal: ctx.signal, what: `template '${info.name}'` },
    );
  }
  if (target !== undefined && args.output_path !== undefined) await runtime.guard.writeText(args.output_path, target, content);
  const written = target !== undefined;
  const usage = tally.usage(runtime.model.name);
  return {
    engine: usage ? "model" : "deterministic",
    data: {
      minimal: { written, ...(written ? { path: runtime.guard.display(target) } : { content }) },
      standard: { content, template: info.name, bytes: Buffer.byteLength(content), lines: countLines(content) },
      full: { template_source: info.source, variables_given: Object.keys(variables).sort() },
    },
    inputChars: text.length,
    ...(usage ? { model: usage } : {}),
  };
}

/**
 * The gate's check of a model-filled template (answer-gate.ts): the file may not be empty, nor
 * shorter than half the template's own text (what lies outside `{{…}}`), which a filled
 * template keeps.
 */
function filledCheck(template: string): AnswerCheck<{ content: string }> {
  const literal = substance(template.replace(/\{\{[^}]*\}\}/g, ""));
  const least = Math.max(1, Math.floor(literal / 2));
  return ({ content }) => {
    const got = substance(content);
    if (got === 0) return "the generated file is empty: fill the template";
    if (got < least)
      return `the generated file has ${got} characters besides spaces, but the template's own text alone has ${literal}: fill the whole template`;
    return undefined;
  };
}
