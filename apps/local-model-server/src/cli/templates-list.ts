/** `local-model templates`: the templates local_generate can use, with their variables. */
import type { TemplateInfo } from "../domain/templates/template-store.js";

export function formatTemplates(templates: readonly TemplateInfo[]): string {
  const lines: string[] = [];
  for (const t of templates) {
    lines.push(`${t.name} (${t.source}) — ${t.description || "no description"}`);
    if (t.problem) lines.push(`  PROBLEM: ${t.problem}`);
    if (t.required.length > 0) lines.push(`  required: ${t.required.join(", ")}`);
    const optional = Object.keys(t.defaults);
    if (optional.length > 0) lines.push(`  optional: ${optional.join(", ")}`);
    lines.push(`  file: ${t.path}`);
  }
  return `${lines.join("\n")}\n`;
}
