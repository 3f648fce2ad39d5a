/** What this app is and how far it is built; shown by both bins until its issue lands. */
export const APP = {
  version: "0.1.0",
  summary: "Solo assets: a personal library of verified functions (quality gate, semantic search, dashboard)",
  status: "its tools (save_function, search_functions, get_function, …) and the solo-assets CLI arrive with issue #6",
} as const;
