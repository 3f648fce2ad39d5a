/**
 * Markdown with YAML frontmatter (`---` … `---` at the top), as the original tool's documents
 * are written. Tolerant: a document whose frontmatter is not valid YAML reads as having none.
 */
import { parse } from "yaml";

export interface MarkdownDocument {
  /** The frontmatter mapping; empty when there is none. */
  frontmatter: Record<string, unknown>;
  /** The text after the frontmatter. */
  body: string;
  hasFrontmatter: boolean;
}

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseMarkdown(text: string): MarkdownDocument {
  const match = FRONTMATTER.exec(text);
  if (match === null) return { frontmatter: {}, body: text.replace(/^\uFEFF/, ""), hasFrontmatter: false };
  let data: unknown;
  try {
    data = parse(match[1] ?? "");
  } catch {
    return { frontmatter: {}, body: text.slice(match[0].length), hasFrontmatter: false };
  }
  const frontmatter = data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  return { frontmatter, body: text.slice(match[0].length), hasFrontmatter: true };
}

/** A frontmatter value read as text (`id: 12` → "12"); undefined for anything else. */
export function frontmatterText(frontmatter: Record<string, unknown>, key: string): string | undefined {
  const value = frontmatter[key];
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The original tool's id for a file without one: its name, lower-cased and dashed. */
export function slugFromFileName(fileName: string): string {
  return fileName
    .replace(/\.(md|markdown)$/i, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s+/g, "-")
    .replace(/-{2,}/g, "-")
    .trim();
}
