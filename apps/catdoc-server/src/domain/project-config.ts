/**
 * `.catdoc/config.yaml`: project settings. The original tool wrote `project`, `neo4j`, `turso`,
 * `dashboard` and `import` sections; we read the ones we use and keep every other key as it is
 * (the schema is loose, and the file is never rewritten by the domain except by `init`).
 */
import { z } from "zod";
import { optional, text } from "./schema-fields.js";

export const ProjectConfigSchema = z.preprocess(
  (value) => value ?? {},
  z.looseObject({
    project: optional(z.looseObject({ name: optional(text), version: optional(text) })),
    dashboard: optional(
      z.looseObject({
        port: optional(z.number().int().min(0).max(65535)),
        host: optional(z.string().min(1)),
      }),
    ),
    import: optional(
      z.looseObject({
        defaultDomain: optional(text),
        watchMode: optional(z.boolean()),
      }),
    ),
    /** Where Markdown documents are looked for (relative to the project root). */
    documents: optional(
      z.looseObject({
        roots: optional(z.array(z.string().min(1))),
      }),
    ),
  }),
);

export type ProjectConfig = z.output<typeof ProjectConfigSchema>;

/** The settings the domain and the app use, with defaults applied. */
export interface ProjectSettings {
  projectName: string;
  /** Domain given to imported documents without one (original default: `general`). */
  defaultDomain: string;
  dashboard: { port: number; host: string };
  /** Folders (relative to the root) scanned for Markdown documents; `["."]` scans the root. */
  documentRoots: string[];
}

/** The dashboard's port when a project sets none (3000 clashes with too many dev servers). */
import { DEFAULT_DASHBOARD_PORT } from "../defaults.js";

export { DEFAULT_DASHBOARD_PORT };

export const DEFAULT_SETTINGS: Omit<ProjectSettings, "projectName"> = {
  defaultDomain: "general",
  dashboard: { port: DEFAULT_DASHBOARD_PORT, host: "127.0.0.1" },
  documentRoots: ["."],
};

export function resolveSettings(config: ProjectConfig, fallbackName: string): ProjectSettings {
  return {
    projectName: config.project?.name ?? fallbackName,
    defaultDomain: config.import?.defaultDomain ?? DEFAULT_SETTINGS.defaultDomain,
    dashboard: {
      port: config.dashboard?.port ?? DEFAULT_SETTINGS.dashboard.port,
      host: config.dashboard?.host ?? DEFAULT_SETTINGS.dashboard.host,
    },
    documentRoots: config.documents?.roots ?? DEFAULT_SETTINGS.documentRoots,
  };
}
