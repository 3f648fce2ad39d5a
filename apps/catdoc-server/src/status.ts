/** What this app is and how far it is built; shown by both bins until its issue lands. */
export const APP = {
  version: "0.1.0",
  summary: "CatDoc: documents as a category (objects, morphisms, functors, natural transformations)",
  status: "its 19 tools, the catdoc CLI and the dashboard arrive with issue #4",
} as const;
