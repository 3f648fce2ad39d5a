// A template's YAML header, in a module of its own: the YAML parser loads with the first template
// listing (template-store.ts imports this lazily), not when the server starts.
import { parse } from "yaml";
import type { TemplateInfo } from "./template-store.js";

const HEADER = /^\{\{!--([\s\S]*?)--\}\}/;

/** Reads the YAML header of a template (empty when it has none; `problem` when it does not parse). */
export function templateHeader(text: string): Pick<TemplateInfo, "description" | "required" | "defaults" | "variables" | "problem"> {
  const empty = { description: "", required: [], defaults: {}, variables: {} };
  const match = HEADER.exec(text);
  if (!match) return empty;
  let header: unknown;
  try {
    header = parse(match[1] ?? "");
  } catch (error) {
    return { ...empty, problem: `its header comment is not valid YAML: ${(error as Error).message.split("\n")[0]}` };
  }
  if (header === null || typeof header !== "object" || Array.isArray(header))
    return { ...empty, problem: "its header comment is not a YAML mapping" };
  const h = header as Record<string, unknown>;
  const record = (value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return {
    description: typeof h.description === "string" ? h.description.trim() : "",
    required: Array.isArray(h.required) ? h.required.map(String) : [],
    defaults: record(h.defaults),
    variables: Object.fromEntries(Object.entries(record(h.variables)).map(([k, v]) => [k, String(v)])),
  };
}
