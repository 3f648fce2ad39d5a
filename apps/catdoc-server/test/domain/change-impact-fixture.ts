/**
 * A requirements → design → tests project for the change-impact tests: three categories of three
 * objects each (login, session, audit) with `login → session → audit` and the composite
 * `login → audit` in each, a functor `designs` (requirements → design) and a functor `tests`
 * (design → tests). Requirements are files under docs/ (metadata path), designs are files found
 * by their frontmatter id, tests keep their document inline. category.yaml has comments, and its
 * flow collections are written as the store prints them (no padding), so an edit changes only what it edits.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeProject } from "./helpers.js";

const NAMES = ["login", "session", "audit"] as const;

function category(id: string, prefix: string, object: (name: string) => string): string {
  const objects = NAMES.map(
    (name) => `      - id: ${prefix}-${name}\n        title: ${prefix} ${name}\n        domain: ${id}\n${object(name)}`,
  ).join("");
  const identities = NAMES.map(
    (name) =>
      `      - {id: id-${prefix}-${name}, name: id, source: ${prefix}-${name}, target: ${prefix}-${name}, metadata: {isIdentity: true}}\n`,
  ).join("");
  return (
    `  - id: ${id}\n    name: ${id}\n    objects:\n${objects}    morphisms:\n${identities}` +
    `      - id: ${prefix}-login-session # login needs a session\n        name: requires\n        source: ${prefix}-login\n        target: ${prefix}-session\n` +
    `      - id: ${prefix}-session-audit\n        name: requires\n        source: ${prefix}-session\n        target: ${prefix}-audit\n` +
    `      - id: ${prefix}-login-audit\n        name: requires\n        source: ${prefix}-login\n        target: ${prefix}-audit\n`
  );
}

function functor(id: string, from: [string, string], to: [string, string]): string {
  const [fromCategory, a] = from;
  const [toCategory, b] = to;
  const objects = NAMES.map((name) => `${a}-${name}: ${b}-${name}`).join(", ");
  const arrows = ["login-session", "session-audit", "login-audit", ...NAMES]
    .map((name) => (NAMES.includes(name as (typeof NAMES)[number]) ? `id-${a}-${name}: id-${b}-${name}` : `${a}-${name}: ${b}-${name}`))
    .join(", ");
  return `  - id: ${id}\n    name: ${id}\n    sourceCategory: ${fromCategory}\n    targetCategory: ${toCategory}\n    objectMapping: {${objects}}\n    morphismMapping: {${arrows}}\n`;
}

export const TRACE_YAML =
  "# Traceability: requirements → design → tests\ncategories:\n" +
  category("requirements", "req", (name) => `        metadata: {path: docs/req-${name}.md}\n`) +
  category("design", "design", () => "") +
  category("tests", "test", (name) => `        content: "Checks ${name}."\n`) +
  "functors:\n" +
  functor("designs", ["requirements", "req"], ["design", "design"]) +
  functor("tests", ["design", "design"], ["tests", "test"]) +
  "naturalTransformations: []\n";

/** Writes the project under `root`; returns the root. */
export async function writeTraceProject(root: string): Promise<string> {
  const files: Record<string, string> = {};
  for (const name of NAMES) {
    files[`docs/req-${name}.md`] = `# Requirement: ${name}\n\nThe system supports ${name}.\n`;
    files[`docs/design/${name}.md`] = `---\nid: design-${name}\n---\n# Design of ${name}\n`;
  }
  return writeProject(root, TRACE_YAML, { files });
}

export function categoryFile(root: string): string {
  return join(root, ".catdoc", "category.yaml");
}

/** Appends a line to a document of the project. */
export async function editDocument(root: string, path: string, line = "A new clause.\n"): Promise<void> {
  const file = join(root, path);
  await writeFile(file, `${await readFile(file, "utf8")}${line}`);
}
