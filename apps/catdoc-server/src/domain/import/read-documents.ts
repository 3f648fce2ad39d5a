/**
 * A Markdown file read for import: the object it describes (frontmatter `id`, else the file
 * name slugged as the original tool did; frontmatter `title`, else the first heading, else the
 * file name; frontmatter `domain`; frontmatter `tags`; frontmatter `category`), a hash of its bytes, and its references.
 */
import { documentHash } from "../content-hash.js";
import { MAX_DOCUMENT_BYTES } from "../document-path.js";
import { frontmatterText, parseMarkdown, slugFromFileName } from "../frontmatter.js";
import { readInsideRoot } from "../paths.js";
import type { FoundFile } from "./discover.js";
import { extractReferences, firstHeading } from "./references.js";
import type { DocumentReference } from "./references.js";

export interface ImportCandidate {
  path: string;
  /** The id the object gets (checked by `isValidObjectId` before use). */
  id: string;
  title: string;
  /** The frontmatter's domain, if it names one. */
  domain: string | undefined;
  tags: string[] | undefined;
  /** The frontmatter's category, if it names one. */
  category: string | undefined;
  /** `sha256:` and the first 16 hex digits of the file's SHA-256. */
  contentHash: string;
  references: DocumentReference[];
}

/** Ids the store accepts: 1–200 characters, no whitespace or control characters, none of / \ # ?. */
const OBJECT_ID = /^[^\s\p{Cc}/\\#?]{1,200}$/u;

export function isValidObjectId(id: string): boolean {
  return OBJECT_ID.test(id);
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function tagsOf(value: unknown): string[] | undefined {
  const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  const tags = list
    .filter((tag): tag is string | number => typeof tag === "string" || typeof tag === "number")
    .map((tag) => String(tag).trim())
    .filter((tag) => tag !== "");
  return tags.length === 0 ? undefined : [...new Set(tags)];
}

export { documentHash };

export async function readCandidate(file: FoundFile): Promise<ImportCandidate> {
  // Read through what was opened, confined to the root: a file swapped for a link since discovery is refused.
  const bytes = await readInsideRoot(file.root, file.absolute, { userPath: file.path, maxBytes: MAX_DOCUMENT_BYTES });
  const { frontmatter, body } = parseMarkdown(bytes.toString("utf8"));
  const name = fileName(file.path);
  return {
    path: file.path,
    id: frontmatterText(frontmatter, "id") ?? slugFromFileName(name),
    title: frontmatterText(frontmatter, "title") ?? firstHeading(body) ?? name.replace(/\.(md|markdown)$/i, ""),
    domain: frontmatterText(frontmatter, "domain"),
    tags: tagsOf(frontmatter["tags"]),
    category: frontmatterText(frontmatter, "category"),
    contentHash: documentHash(bytes),
    references: extractReferences(body),
  };
}
