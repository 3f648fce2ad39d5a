/**
 * Rust: exports are the `pub` items at module level (functions, types, traits, consts, statics,
 * modules, and the names a `pub use` binds; not `pub(crate)`/`pub(super)`, not items inside `impl`
 * blocks or inline modules); imports are the full paths of every `use` (also `pub use`, one per
 * name of a `{…}` list) and the crates of `extern crate`.
 */
import type { Node } from "web-tree-sitter";
import type { FunctionFacts, LanguageFacts, TypeFacts } from "./analysis-types.js";
import { MAX_NESTING, OrderedSet, descendants, field, hasToken, lineOf, namedChildren } from "./syntax.js";

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
    if (kind) types.push({ name: name.text, kind, exported: isPub, line: lineOf(name) });
    if (item.type === "trait_item")
      for (const member of namedChildren(field(item, "body")))
        if (member.type === "function_item" || member.type === "function_signature_item")
          functions.push(functionFacts(member, name.text, false));
  }

  const imports = new OrderedSet();
  for (const node of descendants(root, ["use_declaration", "extern_crate_declaration"])) {
    if (node.type === "extern_crate_declaration") imports.add(field(node, "name")?.text);
    else for (const { path } of usePaths(field(node, "argument"), "")) imports.add(path);
  }
  return { exports: exports.values, imports: imports.values, functions, types, dependencies: imports.values };
}

/** The full paths a use tree names, each with the name it binds (none for a glob). */
function usePaths(tree: Node | null, prefix: string, depth = 0): { path: string; name?: string }[] {
  if (!tree || depth > MAX_NESTING) return [];
  const join = (tail: string) => (prefix ? `${prefix}::${tail}` : tail);
  const compact = (node: Node) => node.text.replace(/\s+/g, "");
  switch (tree.type) {
    case "use_as_clause": {
      const path = field(tree, "path");
      return path ? [{ path: join(compact(path)), name: field(tree, "alias")?.text ?? lastSegment(compact(path)) }] : [];
    }
    case "use_wildcard":
      return [{ path: join(compact(tree)) }];
    case "scoped_use_list": {
      const path = field(tree, "path");
      return usePaths(field(tree, "list"), path ? join(compact(path)) : prefix, depth + 1);
    }
    case "use_list":
      return namedChildren(tree).flatMap((item) =>
        item.type === "self" ? [{ path: prefix, name: lastSegment(prefix) }] : usePaths(item, prefix, depth),
      );
    default: {
      const path = join(compact(tree));
      return [{ path, name: lastSegment(path) }];
    }
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
  };
}
