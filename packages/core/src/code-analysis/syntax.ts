/** Small readers over tree-sitter nodes shared by the language readers. */
import type { Node } from "web-tree-sitter";

/** How deep the readers follow nested patterns and lists (`[[[…]]]`, `use a::{b::{…}}`); deeper ones are left out. */
export const MAX_NESTING = 200;

/** 1-based line of a node. */
export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/** 1-based line of a node's last character (a node that ends after a line break ends on the line before). */
export function endLineOf(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

export function namedChildren(node: Node | null | undefined): Node[] {
  return node ? node.namedChildren.filter((child): child is Node => child !== null) : [];
}

export function children(node: Node | null | undefined): Node[] {
  return node ? node.children.filter((child): child is Node => child !== null) : [];
}

/** Every descendant of one of `types`, in document order (searched by the runtime, not in JavaScript). */
export function descendants(node: Node, types: string | string[]): Node[] {
  return node.descendantsOfType(types).filter((child): child is Node => child !== null);
}

/** Whether a node has an unnamed child token of this type (`async`, `pub`, `default` …). */
export function hasToken(node: Node, token: string): boolean {
  return children(node).some((child) => !child.isNamed && child.type === token);
}

export function field(node: Node, name: string): Node | null {
  return node.childForFieldName(name);
}

/** A string literal's value: its text without the quotes (escapes kept as written). */
export function stringValue(node: Node): string {
  const text = node.text;
  const quote = /^[rbuf]*("""|'''|"|'|`)/i.exec(text);
  if (!quote?.[1]) return text;
  const open = quote[0].length;
  const close = text.endsWith(quote[1]) && text.length >= open + quote[1].length ? quote[1].length : 0;
  return text.slice(open, text.length - close);
}

/** Adds each value once, keeping the first position. */
export class OrderedSet {
  private readonly seen = new Set<string>();
  readonly values: string[] = [];
  add(value: string | undefined): void {
    if (value === undefined || value === "" || this.seen.has(value)) return;
    this.seen.add(value);
    this.values.push(value);
  }
  has(value: string): boolean {
    return this.seen.has(value);
  }
}

/** Lines of the first syntax errors of a tree (ERROR and MISSING nodes), at most `limit`. */
export function syntaxErrorLines(root: Node, limit: number): number[] {
  if (!root.hasError) return [];
  const lines = new Set<number>();
  const stack: Node[] = [root];
  while (stack.length > 0 && lines.size < limit) {
    const node = stack.pop()!;
    if (node.isError || node.isMissing) {
      lines.add(lineOf(node));
      continue;
    }
    if (!node.hasError) continue;
    const kids = children(node);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return [...lines].sort((a, b) => a - b);
}
