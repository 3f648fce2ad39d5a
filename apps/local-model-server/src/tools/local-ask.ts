/**
 * local_ask: a bounded free-form question to the local model (issue 20 item 5), about files under
 * the roots and/or text the caller gives, answered as JSON matching the caller's JSON Schema
 * (default `{answer: string}`). The schema is checked (Ajv, in core) before any prompt is built,
 * the answer is constrained to it, validated, passed through the gate (an empty answer to a
 * question with content is retried, then refused) and counted like every model task.
 */
import { READ_ONLY, defineTool, lazySchema, type ToolContext, type ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { emptyAnswerProblem } from "../domain/model/answer-gate.js";
import { clip, jsonTaskMessages, numbered, type PromptPart } from "../domain/model/prompts.js";
import type { LocalModelRuntime } from "../runtime.js";
import { boundedArray, boundedJsonObject, boundedString, contractOutput } from "./contract.js";
import { readFiles } from "./read-files.js";
import { ModelTally, runTask } from "./run-task.js";
import type { TaskOutcome } from "./task-response.js";

export const DEFAULT_ASK_SCHEMA = {
  type: "object",
  properties: { answer: { type: "string" } },
  required: ["answer"],
  additionalProperties: false,
};

const input = z.object({
  question: boundedString(4_000),
  // JSON Schema of the answer; default {answer: string}
  schema: boundedJsonObject().optional(),
  // read and shown to the model with line numbers
  files: boundedArray(boundedString(4096), 20).optional(),
  text: boundedString(100_000).optional(),
});

const output = lazySchema(() =>
  contractOutput(
    z.object({
      answer: z.unknown().describe("the model's answer, valid against the schema"),
      files: z.array(z.string()).optional(),
      question: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
);

export function localAskTool(runtime: LocalModelRuntime): ToolDefinition {
  return defineTool({
    name: "local_ask",
    title: "Ask the local model",
    description: [
      "Asks the local model a bounded question about files or text; answers JSON valid against your schema (default {answer}), retried when invalid or empty.",
    ].join(" "),
    input,
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    timeoutMs: runtime.config.timeoutMs,
    handler: (args, ctx) => runTask(runtime, "local_ask", ctx, () => ask(runtime, args, ctx)),
  });
}

async function ask(runtime: LocalModelRuntime, args: z.infer<typeof input>, ctx: ToolContext): Promise<TaskOutcome> {
  runtime.model.assertConfigured("local_ask");
  const files = await readFiles(runtime, args.files ?? [], ctx.signal);
  const schema = args.schema ?? DEFAULT_ASK_SCHEMA;
  // One prompt's share of max_input_chars per input, so many files cannot crowd the question out.
  const share = Math.max(500, Math.floor(runtime.config.maxInputChars / Math.max(1, files.length + (args.text ? 1 : 0))));
  const parts: PromptPart[] = [
    ...files.map((f) => ({ label: `FILE ${f.given} (line numbers added)`, text: numbered(f.text, share) })),
    ...(args.text ? [{ label: "TEXT", text: clip(args.text, share) }] : []),
  ];
  const messages = jsonTaskMessages(
    "careful assistant. Answer the question from the input given; say so in the answer when the input does not tell",
    `QUESTION: ${args.question}`,
    parts,
    schema,
  );
  const tally = new ModelTally();
  const answer = tally.add(await runtime.model.json<unknown>({ messages, schema, check: emptyAnswerProblem }, ctx.signal));
  const usage = tally.usage(runtime.model.name);
  return {
    engine: "model",
    data: {
      minimal: { answer },
      standard: files.length > 0 ? { files: files.map((f) => f.given) } : {},
      full: { question: args.question, schema },
    },
    inputChars: files.reduce((sum, f) => sum + f.text.length, 0) + (args.text?.length ?? 0),
    ...(usage ? { model: usage } : {}),
  };
}
