/**
 * Rust: exports are the `pub` items at module level (functions, types, traits, consts, statics,
 * modules, and the names a `pub use` binds; not `pub(crate)`/`pub(super)`, not items inside `impl`
 * blocks or inline modules); imports are the full paths of every `use` (also `pub use`, one per
 * name of a `{…}` list) and the crates of `extern crate`.
 */
import type { Node } from "web-tree-sitter";
import type { FunctionFacts, ImportFacts, LanguageFacts, TypeFacts } from "./analysis-types.js";
import { MAX_NESTING, OrderedSet, descendants, endLineOf, field, hasToken, lineOf, namedChildren } from "./syntax.js";

const TYPE_KINDS: Readonly<Record<string, string>> = {
  struct_item: "struct",
  enum_item: "enum",
  trait_item: "trait",
  type_item: "type",
  union_item: "union",
};
const NAMED_ITEMS = new Set(["function_item", "const_item", "static_item", "mod_item", ...Object.keys(TYPE_KINDS)]);

export function rustFacts(root: Node): LanguageFacts {
  const exports = new OrderedSet();
  const functions: FunctionFacts[] = [];
  const types: TypeFacts[] = [];

  for (const item of namedChildren(root)) {
    const isPub = namedChildren(item).some((child) => child.type === "visibility_modifier" && child.text === "pub");
    const name = field(item, "name");
    if (item.type === "use_declaration") {
      if (isPub) for (const { name: bound } of usePaths(field(item, "argument"), "")) exports.add(bound);
      continue;
    }
    if (!name || !NAMED_ITEMS.has(item.type)) {
      if (item.type === "impl_item") {
        const owner = implOwner(item);
        for (const member of namedChildren(field(item, "body")))
          if (member.type === "function_item") functions.push(functionFacts(member, owner, false));
      }
      continue;
    }
    if (isPub) exports.add(name.text);
    if (item.type === "function_item") functions.push(functionFacts(item, undefined, isPub));
    const kind = TYPE_KINDS[item.type];
    if (kind) types.push({ name: name.text, kind, exported: isPub, line: lineOf(name), endLine: endLineOf(item) });
    if (item.type === "trait_item")
      for (const member of namedChildren(field(item, "body")))
        if (member.type === "function_item" || member.type === "function_signature_item")
          functions.push(functionFacts(member, name.text, false));
  }

  const imports = new OrderedSet();
  const importedNames: ImportFacts[] = [];
  for (const node of descendants(root, ["use_declaration", "extern_crate_declaration"])) {
    const line = lineOf(node);
    if (node.type === "extern_crate_declaration") {
      const crate = field(node, "name")?.text;
      if (!crate) continue;
      imports.add(crate);
      const alias = field(node, "alias")?.text;
      importedNames.push({ module: crate, names: [], ...(alias === undefined ? {} : { alias }), line });
      continue;
    }
    // One entry per module the declaration takes names from, in order (`use a::{b, c::D}` → a: b; a::c: D).
    const byModule = new Map<string, ImportFacts>();
    for (const used of usePaths(field(node, "argument"), "")) {
      imports.add(used.path);
      let facts = byModule.get(used.module);
      if (!facts) {
        facts = { module: used.module, names: [], ...(used.alias === undefined ? {} : { alias: used.alias }), line };
        byModule.set(used.module, facts);
        importedNames.push(facts);
      }
      if (used.item !== undefined && !facts.names.includes(used.item)) facts.names.push(used.item);
    }
  }
  return { exports: exports.values, imports: imports.values, importedNames, functions, types, dependencies: imports.values };
}

interface UsedPath {
  /** The full path (`std::fmt::Display`, `crate::errors::*`). */
  path: string;
  /** The name it binds (none for a glob). */
  name?: string;
  /** The module it is taken from and the item as written (`Display`, `Rate as ExchangeRate`, `self`, `*`). */
  module: string;
  item?: string;
  /** A lone path bound to another name (`use serde as s;`). */
  alias?: string;
}

/** The full paths a use tree names, each with the name it binds and the module it comes from. */
function usePaths(tree: Node | null, prefix: string, depth = 0): UsedPath[] {
  if (!tree || depth > MAX_NESTING) return [];
  const join = (tail: string) => (prefix ? `${prefix}::${tail}` : tail);
  const compact = (node: Node) => node.text.replace(/\s+/g, "");
  /** `a::b::C` → module a::b, item C; a lone segment (`use serde;`) is the module itself. */
  const split = (path: string, alias?: string): UsedPath => {
    const cut = path.lastIndexOf("::");
    const name = lastSegment(path);
    if (cut <= 0) return { path, name: alias ?? name, module: path, ...(alias === undefined ? {} : { alias }) };
    return { path, name: alias ?? name, module: path.slice(0, cut), item: alias === undefined ? name : `${name} as ${alias}` };
  };
  switch (tree.type) {
    case "use_as_clause": {
      const path = field(tree, "path");
      const alias = field(tree, "alias")?.text;
      if (!path) return [];
      // `{self as x}` renames the list's own module.
      if (path.type === "self" && prefix)
        return [{ path: prefix, name: alias ?? lastSegment(prefix), module: prefix, item: `self as ${alias}` }];
      return [split(join(compact(path)), alias)];
    }
    case "use_wildcard": {
      const path = join(compact(tree));
      return [{ path, module: path.slice(0, Math.max(0, path.length - 3)), item: "*" }];
    }
    case "scoped_use_list": {
      const path = field(tree, "path");
      return usePaths(field(tree, "list"), path ? join(compact(path)) : prefix, depth + 1);
    }
    case "use_list":
      return namedChildren(tree).flatMap((item) =>
        item.type === "self" ? [{ path: prefix, name: lastSegment(prefix), module: prefix, item: "self" }] : usePaths(item, prefix, depth),
      );
    default:
      return [split(join(compact(tree)))];
  }
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("::") + 2 > 1 ? path.lastIndexOf("::") + 2 : 0);
}

/** `impl<T> fmt::Display for Wrapper<T>` → Wrapper. */
function implOwner(impl: Node): string | undefined {
  let type = field(impl, "type");
  while (type && (type.type === "generic_type" || type.type === "reference_type")) type = field(type, "type");
  if (type?.type === "scoped_type_identifier") return field(type, "name")?.text;
  return type?.text;
}

function functionFacts(node: Node, container: string | undefined, exported: boolean): FunctionFacts {
  const name = field(node, "name");
  const modifiers = namedChildren(node).find((child) => child.type === "function_modifiers");
  return {
    name: name?.text ?? "",
    ...(container === undefined ? {} : { container }),
    params: namedChildren(field(node, "parameters")).flatMap((parameter) => {
      if (parameter.type === "self_parameter") return ["self"];
      if (parameter.type !== "parameter") return [];
      const pattern = field(parameter, "pattern");
      return pattern ? [pattern.text.replace(/\s+/g, " ")] : [];
    }),
    async: modifiers ? hasToken(modifiers, "async") : false,
    exported,
    line: lineOf(name ?? node),
    endLine: endLineOf(node),
  };
}
