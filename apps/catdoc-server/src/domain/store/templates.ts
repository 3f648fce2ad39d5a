/** The files `init` writes: an empty, valid category.yaml and a config.yaml with defaults. */
import { Document } from "yaml";
import { DEFAULT_SETTINGS } from "../project-config.js";
import { YAML_OUTPUT_OPTIONS } from "./yaml-edit.js";

export function categoryTemplate(projectName: string): string {
  const doc = new Document({ categories: [], functors: [], naturalTransformations: [] });
  doc.commentBefore = [
    ` CatDoc categories of ${projectName.replace(/\s+/g, " ")}`,
    " Objects are documents; morphisms are the relations between them.",
    " The identity of an object A is the endomorphism A → A marked metadata.isIdentity: true,",
    " else the one with id id-<A> (the store adds it when it adds an object).",
    " Functors map one category into another; natural transformations relate two functors.",
  ].join("\n");
  return doc.toString(YAML_OUTPUT_OPTIONS);
}

export function configTemplate(projectName: string): string {
  const doc = new Document({
    project: { name: projectName, version: "1.0.0" },
    dashboard: { ...DEFAULT_SETTINGS.dashboard },
    import: { defaultDomain: DEFAULT_SETTINGS.defaultDomain },
    documents: { roots: [...DEFAULT_SETTINGS.documentRoots] },
  });
  doc.commentBefore = " CatDoc project settings (unknown keys are kept)";
  return doc.toString(YAML_OUTPUT_OPTIONS);
}
