/**
 * What the per-language readers (python-file-facts.ts, go-file-facts.ts, rust-file-facts.ts,
 * java-file-facts.ts) share: they read a file's tree-sitter syntax tree (from core's
 * analyzeSourceWith, the same parse that answers its exports and imports) into mochi's FileFacts.
 */
import type { Node } from "web-tree-sitter";
import { lineOf, namedChildren } from "@local-mcp/core/code-analysis";
import {
  cleanDocComment,
  emptyErrorFacts,
  type CatchStyle,
  type CodeChunk,
  type Declaration,
  type ErrorFacts,
  type IdentifierKind,
  type ImportFact,
  type PatternHit,
  type PatternName,
} from "./source-facts.js";

/** A container (class, impl) longer than this gives its methods as chunks instead of itself. */
export const LONG_CONTAINER_LINES = 80;

export const CATCH_QUALITY: Readonly<Record<CatchStyle, number>> = { rethrow: 3, fallback: 2, handle: 1, swallow: 0 };

/** 1-based last line of a node (a node that ends at a line's start ends on the line before). */
export function endLineOf(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/** The facts a reader gathers; analyze-file.ts adds the path, language, line count and test framework. */
export class FactsCollector {
  readonly declarations: Declaration[] = [];
  readonly chunks: CodeChunk[] = [];
  readonly imports: ImportFact[] = [];
  readonly errors: ErrorFacts = emptyErrorFacts();
  readonly patterns: PatternHit[] = [];

  declare(kind: IdentifierKind, name: string, line: number, exported = false): void {
    this.declarations.push({ kind, name, line, exported });
  }

  hit(pattern: PatternName, symbol: string, startLine: number, endLine: number, quality = 1): void {
    this.patterns.push({ pattern, symbol, startLine, endLine, quality });
  }

  chunk(symbol: string, kind: IdentifierKind, startLine: number, endLine: number, exported: boolean, doc: string | undefined): void {
    this.chunks.push({ symbol, kind, startLine, endLine, exported, ...(doc ? { doc } : {}) });
  }

  /** Chunks and patterns in source order. */
  sorted(): this {
    this.chunks.sort((a, b) => a.startLine - b.startLine);
    this.patterns.sort((a, b) => a.startLine - b.startLine || a.pattern.localeCompare(b.pattern));
    return this;
  }
}

/**
 * The doc comment right above a declaration (or its first attribute): a `/** … *\/` block, or a run
 * of `//`/`///` line comments (Go's `//go:` directives are not documentation). Empty lines between
 * the comment and the declaration are allowed only for block comments' own lines.
 */
export function docCommentAbove(node: Node): string | undefined {
  const comments: Node[] = [];
  let previous = node.previousSibling;
  let line = lineOf(node);
  while (previous && (previous.type === "comment" || previous.type === "line_comment" || previous.type === "block_comment")) {
    if (endLineOf(previous) !== line - 1 && endLineOf(previous) !== line) break;
    comments.unshift(previous);
    line = lineOf(previous);
    if (previous.text.startsWith("/*")) break;
    previous = previous.previousSibling;
  }
  if (comments.length === 0) return undefined;
  const block = comments.find((c) => c.text.startsWith("/*"));
  if (block) {
    if (!block.text.startsWith("/**") || comments.length > 1) return undefined;
    const doc = cleanDocComment(block.text);
    return doc.length > 0 ? doc : undefined;
  }
  const lines = comments.map((c) => c.text.trim()).filter((text) => !text.startsWith("//go:"));
  if (lines.length === 0) return undefined;
  const doc = cleanDocComment(lines.join("\n"));
  return doc.length > 0 ? doc : undefined;
}

/**
 * What a catch/except body does: throws (rethrow or wrap), returns (fallback), nothing (swallow;
 * `pass` is nothing), or something else. Nodes of a `skip` type (nested functions) are not looked into.
 */
export function catchStyleOf(body: Node | null, throwTypes: readonly string[], skip: ReadonlySet<string> = new Set()): CatchStyle {
  const statements = namedChildren(body).filter((c) => !c.type.includes("comment") && c.type !== "pass_statement");
  if (!body || statements.length === 0) return "swallow";
  let throws = false;
  let returns = false;
  const stack = [...statements];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (skip.has(node.type)) continue;
    if (throwTypes.includes(node.type)) throws = true;
    else if (node.type === "return_statement") returns = true;
    stack.push(...namedChildren(node));
  }
  return throws ? "rethrow" : returns ? "fallback" : "handle";
}
