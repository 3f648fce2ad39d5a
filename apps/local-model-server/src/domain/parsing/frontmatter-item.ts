// local_extract's frontmatter item, parsed in the parser thread (parse-tasks.ts loads this module,
// and with it the YAML parser, on the thread's first frontmatter task).
import type { ExtractFormat, ExtractItem } from "../extract/extract-file.js";
import { frontmatterField, parseFrontmatter } from "../frontmatter/frontmatter.js";

const flow = (value: unknown) => JSON.stringify(value ?? null);

/** local_extract's frontmatter item: the requested fields (all top-level ones by default) with their lines. */
export function frontmatterItem(text: string, fields: readonly string[] | undefined, format: ExtractFormat): ExtractItem {
  const frontmatter = parseFrontmatter(text);
  if (frontmatter.error) return { found: false, data: format === "list" ? [] : {}, lineNumbers: [], error: frontmatter.error };
  if (!frontmatter.present) return { found: false, data: format === "list" ? [] : {}, lineNumbers: [] };
  const names = fields && fields.length > 0 ? [...fields] : frontmatter.keys;
  const values = names.map((name) => ({ name, ...frontmatterField(frontmatter, name) }));
  const found = !fields || fields.length === 0 || values.some((v) => v.found);
  const data =
    format === "list"
      ? values.filter((v) => v.found).map((v) => `${v.name}: ${flow(v.value)}`)
      : Object.fromEntries(values.map((v) => [v.name, v.value]));
  const lineNumbers = (format === "list" ? values.filter((v) => v.found) : values).map((v) => v.line ?? null);
  return {
    found,
    data,
    lineNumbers,
    details: {
      frontmatter_lines: [frontmatter.startLine, frontmatter.endLine],
      keys: frontmatter.keys,
      missing: values.filter((v) => !v.found).map((v) => v.name),
    },
  };
}
