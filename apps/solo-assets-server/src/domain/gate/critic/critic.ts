/**
 * The gate's fourth step (seed §3.3): a language model scores the code 0–100 for readability,
 * docstring and reusability; the mean passes at ≥ the threshold (80). Backends: Gemini through
 * `@google/genai`, a local GGUF model through core's LlamaEngine, or off. The response always
 * names the backend and model that ran.
 */
import { ToolError } from "@local-mcp/core";
import { z } from "zod";
import type { CriticScores } from "../gate-report.js";

export interface CriticInput {
  name: string;
  description: string;
  code: string;
}

export interface CriticVerdict {
  scores: CriticScores;
  comments: string;
}

export interface Critic {
  readonly backend: "gemini" | "local";
  readonly model: string;
  review(input: CriticInput, signal: AbortSignal): Promise<CriticVerdict>;
  dispose?(): Promise<void> | void;
}

/** The answer's JSON Schema: given to the model (Gemini JSON mode, llama.cpp grammar). */
export const VERDICT_JSON_SCHEMA = {
  type: "object",
  properties: {
    readability: { type: "integer", minimum: 0, maximum: 100 },
    docstring: { type: "integer", minimum: 0, maximum: 100 },
    reusability: { type: "integer", minimum: 0, maximum: 100 },
    comments: { type: "string", maxLength: 200 },
  },
  required: ["readability", "docstring", "reusability", "comments"],
  additionalProperties: false,
} as const;

const score = z.coerce
  .number()
  .finite()
  .transform((n) => Math.max(0, Math.min(100, Math.round(n))));
const VerdictSchema = z.object({
  readability: score,
  docstring: score,
  reusability: score,
  comments: z.string().default(""),
});

export const CRITIC_INSTRUCTIONS = [
  "You review Python functions before they are stored in a library that AI coding agents reuse.",
  "Score the function from 0 to 100 on each of:",
  "- readability: clear names, straightforward logic, no dead code;",
  "- docstring: an agent can use the function from its docstring alone (purpose, arguments, return value, errors);",
  "- reusability: general, no hard-coded paths, machines or secrets, no hidden global state.",
  "Answer with JSON only, exactly these keys:",
  '{"readability": <0-100>, "docstring": <0-100>, "reusability": <0-100>, "comments": "<one or two sentences: what to improve>"}',
].join("\n");

export function criticPrompt(input: CriticInput): string {
  return `${CRITIC_INSTRUCTIONS}\n\nFunction name: ${input.name}\nDescription: ${input.description}\n\n\`\`\`python\n${input.code}\n\`\`\``;
}

/** The verdict in a model's answer: the first JSON object in it (models like fences). */
export function parseVerdict(text: string, model: string): CriticVerdict {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  let raw: unknown;
  try {
    raw = JSON.parse(start >= 0 && end > start ? text.slice(start, end + 1) : text);
  } catch {
    throw new ToolError("UPSTREAM_ERROR", `The critic (${model}) did not answer with JSON: ${text.slice(0, 200)}`);
  }
  const parsed = VerdictSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ToolError("UPSTREAM_ERROR", `The critic (${model}) answered without the three scores: ${text.slice(0, 200)}`);
  }
  const { comments, ...scores } = parsed.data;
  return { scores, comments: comments.slice(0, 600) };
}

export function meanScore(scores: CriticScores): number {
  return Math.round((scores.readability + scores.docstring + scores.reusability) / 3);
}
