/**
 * Strict template filling with Handlebars: `strict: true`, so a variable the template uses and
 * the call does not give is an error naming it (never an empty hole), and `noEscape`, since the
 * output is Markdown, not HTML. Helpers render YAML safely for frontmatter.
 */
import Handlebars from "handlebars";
import { ToolError } from "@local-mcp/core";
import { stringify } from "yaml";

const handlebars = Handlebars.create();

// Templates come from the caller (inline) or a templates directory: they may not print. The
// built-in `log` helper wrote through console.info to stdout, the MCP channel (issue #13): it is
// removed, so `{{log …}}` is a missing helper (INVALID_INPUT); Handlebars' own warnings (denied
// prototype access) use console.error, which is stderr — as is every console method in a
// server process under core's stdout guard.
handlebars.unregisterHelper("log");

/** The compiler treats `log` as built in unless told otherwise (it would call the removed helper directly). */
const COMPILE_OPTIONS: CompileOptions = { strict: true, noEscape: true, knownHelpers: { log: false } };

/** Runtime options of every render: no prototype properties or methods, whatever the defaults become. */
const RUNTIME_OPTIONS: Handlebars.RuntimeOptions = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
  allowCallsToHelperMissing: false,
};

function yamlFlow(value: unknown): string {
  return stringify(value ?? null, { collectionStyle: "flow", lineWidth: 0, flowCollectionPadding: false }).trimEnd();
}

function yamlBlock(value: unknown, indent: unknown): string {
  const pad = " ".repeat(typeof indent === "number" ? indent : 0);
  const text = stringify(value ?? null, { lineWidth: 0 }).trimEnd();
  return text
    .split("\n")
    .map((line) => pad + line)
    .join("\n");
}

/** Handlebars passes its options object as the last argument; helpers drop it. */
function args(all: unknown[]): unknown[] {
  return all.slice(0, -1);
}

handlebars.registerHelper({
  /** `{{yaml value}}`: a YAML flow value (quoted when needed, so types survive). */
  yaml: (...all: unknown[]) => yamlFlow(args(all)[0]),
  /** `{{yamlBlock value 2}}`: block YAML, every line indented by N spaces. */
  yamlBlock: (...all: unknown[]) => {
    const [value, indent] = args(all);
    return yamlBlock(value, indent);
  },
  json: (...all: unknown[]) => JSON.stringify(args(all)[0] ?? null),
  /** `{{join list ", "}}` */
  join: (...all: unknown[]) => {
    const [list, separator] = args(all);
    return Array.isArray(list) ? list.map(String).join(typeof separator === "string" ? separator : ", ") : "";
  },
  /** `{{inc @index}}`: 1-based numbering. */
  inc: (...all: unknown[]) => Number(args(all)[0] ?? 0) + 1,
  eq: (...all: unknown[]) => {
    const [a, b] = args(all);
    return a === b;
  },
  /** `{{default value "fallback"}}` for optional variables. */
  default: (...all: unknown[]) => {
    const [value, fallback] = args(all);
    return value === undefined || value === null || value === "" ? fallback : value;
  },
  /** `{{phaseNumber "01-foundation"}}` → `01`. */
  phaseNumber: (...all: unknown[]) => String(args(all)[0] ?? "").split("-")[0],
  /** `{{progressBar 30}}` → `[███░░░░░░░] 30%`. */
  progressBar: (...all: unknown[]) => {
    const percent = Math.max(0, Math.min(100, Math.round(Number(args(all)[0] ?? 0))));
    const filled = Math.round(percent / 10);
    return `[${"█".repeat(filled)}${"░".repeat(10 - filled)}] ${percent}%`;
  },
  /** `{{today}}`: the local date as YYYY-MM-DD (for `completed`, `verified` defaults). */
  today: () => {
    const now = new Date();
    return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  },
  /** `{{yamlKey "requires" requires 0}}`: `requires: []` when empty, else the key and a block below it. */
  yamlKey: (...all: unknown[]) => {
    const [key, value, indent] = args(all);
    const pad = " ".repeat(typeof indent === "number" ? indent : 0);
    const empty =
      value === undefined ||
      value === null ||
      (Array.isArray(value) && value.length === 0) ||
      (isPlainObject(value) && Object.keys(value).length === 0);
    if (empty || typeof value !== "object") return `${pad}${String(key)}: ${yamlFlow(value ?? (Array.isArray(value) ? [] : null))}`;
    return `${pad}${String(key)}:\n${yamlBlock(value, (typeof indent === "number" ? indent : 0) + 2)}`;
  },
  /** `{{bullets list "None"}}`: `- item` lines, or the fallback for an empty list. */
  bullets: (...all: unknown[]) => {
    const [list, fallback] = args(all);
    if (!Array.isArray(list) || list.length === 0) return typeof fallback === "string" ? fallback : "";
    return list.map((item) => `- ${typeof item === "string" ? item : JSON.stringify(item)}`).join("\n");
  },
});

const compiled = new Map<string, HandlebarsTemplateDelegate>();

function compile(text: string): HandlebarsTemplateDelegate {
  let template = compiled.get(text);
  if (!template) {
    try {
      // Precompiling here surfaces syntax errors now rather than at the first render.
      handlebars.precompile(text, COMPILE_OPTIONS);
    } catch (error) {
      throw new ToolError("INVALID_INPUT", `The template does not parse: ${(error as Error).message.split("\n")[0]}`, {
        details: { field: "template" },
      });
    }
    template = handlebars.compile(text, COMPILE_OPTIONS);
    if (compiled.size > 200) compiled.clear();
    compiled.set(text, template);
  }
  return template;
}

export interface RenderOptions {
  /** Template name for messages (`inline` for inline templates). */
  name: string;
  required?: readonly string[];
  defaults?: Record<string, unknown>;
}

export function renderTemplate(text: string, variables: Record<string, unknown>, options: RenderOptions): string {
  const context = withDefaults(options.defaults ?? {}, variables);
  const missing = (options.required ?? []).filter((name) => context[name] === undefined || context[name] === null);
  if (missing.length > 0) {
    throw missingVariables(
      options.name,
      missing.map((variable) => ({ variable })),
    );
  }
  const template = compile(text);
  try {
    return template(context, RUNTIME_OPTIONS);
  } catch (error) {
    const message = (error as Error).message;
    const match = /"([^"]+)" not defined in .* - (\d+):(\d+)/.exec(message);
    if (match) {
      const line = Number(match[2]);
      const column = Number(match[3]);
      throw missingVariables(options.name, [{ variable: expressionAt(text, line, column) ?? match[1] ?? "?", line }]);
    }
    throw new ToolError("INVALID_INPUT", `Template '${options.name}' failed: ${message}`, { details: { field: "variables" } });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Defaults under the given variables, merged into nested objects (a partial `tech_stack` keeps the other keys). */
function withDefaults(defaults: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(given)) {
    const base = out[key];
    out[key] = isPlainObject(base) && isPlainObject(value) ? withDefaults(base, value) : value;
  }
  return out;
}

/** The variable path written at (line, column) of the template, e.g. `tasks.name` → `name`. */
function expressionAt(text: string, line: number, column: number): string | undefined {
  const source = text.split("\n")[line - 1];
  if (source === undefined) return undefined;
  const match = /^[#/^]?\s*([@A-Za-z0-9_.\-[\]/]+)/.exec(source.slice(column).replace(/^\{\{~?\s*/, ""));
  return match?.[1];
}

function missingVariables(name: string, missing: { variable: string; line?: number }[]): ToolError {
  const list = missing.map((m) => `'${m.variable}'${m.line === undefined ? "" : ` (template line ${m.line})`}`).join(", ");
  return new ToolError("INVALID_INPUT", `Template '${name}' needs variable ${list}, which the call did not give.`, {
    suggestion: `Add ${missing.map((m) => `'${m.variable}'`).join(", ")} to variables and call again.`,
    details: { field: "variables", missing: missing.map((m) => m.variable), template: name },
  });
}
