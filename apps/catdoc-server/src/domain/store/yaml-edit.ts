/**
 * Small edits on a yaml Document that keep everything else as it was: comments, key order,
 * blank lines and the style of untouched nodes. New lists are written in block style, also
 * when they replace an empty flow list such as `functors: []`.
 */
import { YAMLMap, YAMLSeq, isMap, isScalar, isSeq } from "yaml";
import type { Document } from "yaml";

/** How the store prints documents: flow lists as `[a, b]`, long lines never folded. */
export const YAML_OUTPUT_OPTIONS = { flowCollectionPadding: false, lineWidth: 0 } as const;

export interface IndentStyle {
  /** Spaces per level (2 in the original tool's files). */
  indent: number;
  /** Whether `- item` lines sit deeper than their key (`key:\n  - item`) or level with it. */
  indentSeq: boolean;
}

/**
 * The indentation a file already uses, so an edit does not re-indent the whole file: the
 * smallest indent of any content line, and whether a list under a key is indented.
 */
export function detectIndentStyle(text: string): IndentStyle {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
  let indent = 0;
  for (const line of lines) {
    const spaces = line.length - line.trimStart().length;
    if (spaces > 0 && (indent === 0 || spaces < indent)) indent = spaces;
  }
  let indentSeq = true;
  for (let i = 0; i + 1 < lines.length; i += 1) {
    const key = /^( *)[^\s#-][^#]*:\s*$/.exec(lines[i] ?? "");
    const next = lines[i + 1] ?? "";
    if (key !== null && next.startsWith(`${key[1] ?? ""}- `)) {
      indentSeq = false;
      break;
    }
    if (key !== null && /^ +- /.test(next)) break;
  }
  return { indent: indent >= 2 && indent <= 8 ? indent : 2, indentSeq };
}

export function rootMap(doc: Document): YAMLMap {
  if (isMap(doc.contents)) return doc.contents;
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    const map = new YAMLMap();
    doc.contents = map;
    return map;
  }
  throw new Error("category.yaml does not hold a mapping at its top level");
}

/** The list under `key`, created (block style) when absent or empty. */
export function blockSeqAt(doc: Document, parent: YAMLMap, key: string): YAMLSeq {
  const value = parent.get(key, true);
  if (isSeq(value)) {
    if (value.flow === true && value.items.length === 0) value.flow = false;
    return value;
  }
  if (value !== undefined && !(isScalar(value) && value.value === null)) {
    throw new Error(`'${key}' is not a list`);
  }
  const seq = new YAMLSeq(doc.schema);
  parent.set(key, seq);
  return seq;
}

/** The mapping under `key`, created (block style) when absent or empty. */
export function blockMapAt(doc: Document, parent: YAMLMap, key: string): YAMLMap {
  const value = parent.get(key, true);
  if (isMap(value)) {
    if (value.flow === true && value.items.length === 0) value.flow = false;
    return value;
  }
  if (value !== undefined && !(isScalar(value) && value.value === null)) {
    throw new Error(`'${key}' is not a mapping`);
  }
  const map = new YAMLMap(doc.schema);
  parent.set(key, map);
  return map;
}

/** The item of a list whose `id` is `id` (first one), with its position. */
export function findById(seq: YAMLSeq, id: string): { node: YAMLMap; index: number } | undefined {
  for (let index = 0; index < seq.items.length; index += 1) {
    const node = seq.items[index];
    if (isMap(node) && String(node.get("id")) === id) return { node, index };
  }
  return undefined;
}

/** Appends a plain value as a new block-style node. */
export function appendItem(doc: Document, seq: YAMLSeq, value: Record<string, unknown>): void {
  seq.add(doc.createNode(value));
}

/** Sets `key` to a plain value, in place when the key exists (its position is kept). */
export function setField(doc: Document, map: YAMLMap, key: string, value: unknown): void {
  map.set(key, doc.createNode(value));
}

/** Removes the keys of a mapping node for which `drop(key, value)` says so; returns how many. */
export function deleteEntries(map: YAMLMap, drop: (key: string, value: string) => boolean): number {
  const before = map.items.length;
  map.items = map.items.filter((pair) => {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const value = isScalar(pair.value) ? String(pair.value.value) : String(pair.value);
    return !drop(key, value);
  });
  return before - map.items.length;
}
