/**
 * Prompts for the model tasks, in the seed's style: a role, the task, the input, the schema, and
 * "JSON only". The output is constrained by the schema anyway (grammar locally,
 * `response_format` remotely); the schema in the prompt helps larger models fill it well.
 */
import type { ChatMessage, JsonSchema } from "@local-mcp/core/inference";

export interface PromptPart {
  label: string;
  text: string;
}

export function jsonTaskMessages(role: string, task: string, parts: readonly PromptPart[], schema: JsonSchema): ChatMessage[] {
  const system = [
    `You are a ${role}.`,
    "Answer with one JSON value that matches this JSON schema, and nothing else: no explanation, no markdown, no code fences.",
    `JSON schema: ${JSON.stringify(schema)}`,
  ].join("\n");
  const user = [task, ...parts.map((p) => `${p.label}:\n${p.text}`)].join("\n\n");
  return [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
}

/** Cuts text to `maxChars`, saying how much was left out. */
export function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… ${text.length - maxChars} more characters not shown]`;
}

/** File content with line numbers, so the model can cite `line N`. */
export function numbered(text: string, maxChars: number): string {
  return clip(
    text
      .split(/\r?\n/)
      .map((line, i) => `${i + 1}: ${line}`)
      .join("\n"),
    maxChars,
  );
}
