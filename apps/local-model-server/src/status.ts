/** What this app is and how far it is built; shown by both bins until its issue lands. */
export const APP = {
  version: "0.1.0",
  summary: "Local model: offload structured chores from Claude (extract, verify, generate, git, analyze)",
  status: "its tools (local_extract, local_verify, local_generate, local_git, local_analyze) arrive with issue #5",
} as const;
