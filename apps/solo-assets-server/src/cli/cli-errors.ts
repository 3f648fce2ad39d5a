/**
 * The one line a failed command prints: `solo-assets: CODE: message — suggestion`, and its exit
 * status (2 for bad usage: INVALID_INPUT, a bad SOLO_* variable; 1 otherwise). Suggestions from
 * the library name MCP tools (search_functions, …); a CLI user gets the commands instead.
 */
import { ConfigError, isToolError } from "@local-mcp/core";

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** MCP tool names → the CLI command that does the same (longest names first). */
const COMMAND_FOR_TOOL: readonly [RegExp, string][] = [
  [/\bget_function_history\b/g, "`solo-assets history <name>`"],
  [/\bsearch_functions\b/g, "`solo-assets search <words>`"],
  [/\blist_functions\b/g, "`solo-assets list`"],
  [/\bget_function\b/g, "`solo-assets get <name>`"],
  [/\bsave_function\b/g, "`solo-assets save <file>`"],
  [/\bdelete_function\b/g, "`solo-assets delete <name>`"],
  [/\bexport_function\b/g, "`solo-assets export <names…> --to <dir>`"],
];

export function inCliTerms(text: string): string {
  return COMMAND_FOR_TOOL.reduce((out, [tool, command]) => out.replace(tool, command), text);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function failureLine(error: unknown): { line: string; exitCode: number } {
  if (isToolError(error)) {
    const suggestion = error.suggestion ? ` — ${oneLine(inCliTerms(error.suggestion))}` : "";
    return {
      line: `solo-assets: ${error.code}: ${oneLine(inCliTerms(error.message))}${suggestion}`,
      exitCode: error.code === "INVALID_INPUT" ? EXIT_USAGE : EXIT_FAILURE,
    };
  }
  if (error instanceof ConfigError) {
    return {
      line: `solo-assets: INVALID_INPUT: ${oneLine(error.message)} — see \`solo-assets-mcp --help\` for the variables`,
      exitCode: EXIT_USAGE,
    };
  }
  return { line: `solo-assets: INTERNAL: ${oneLine(error instanceof Error ? error.message : String(error))}`, exitCode: EXIT_FAILURE };
}
