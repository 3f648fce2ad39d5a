/** What this app is and how far it is built; shown by both bins until its issue lands. */
export const APP = {
  version: "0.1.0",
  summary: "Mochi: a codebase's own small model as MCP (domain questions, code completion, pattern suggestions)",
  status: "its tools (domain_query, complete_code, suggest_pattern) and the mochi CLI arrive with issue #7",
} as const;
