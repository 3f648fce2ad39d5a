/**
 * C#: exports are the public top-level types (directly in the file or in a namespace); imports are
 * the namespaces and types of `using` directives as full names (`System.Collections.Generic`; an
 * alias's target; `using static`'s type).
 */
import type { Node } from "web-tree-sitter";
import type { FunctionFacts, ImportFacts, LanguageFacts, TypeFacts } from "./analysis-types.js";
import { OrderedSet, endLineOf, field, hasToken, lineOf, namedChildren } from "./syntax.js";

const TYPE_KINDS: Readonly<Record<string, string>> = {
  class_declaration: "class",
  interface_declaration: "interface",
  struct_declaration: "struct",
  enum_declaration: "enum",
  record_declaration: "record",
  delegate_declaration: "delegate",
};

export function csharpFacts(root: Node): LanguageFacts {
  const exports = new OrderedSet();
  const imports = new OrderedSet();
  const importedNames: ImportFacts[] = [];
  const functions: FunctionFacts[] = [];
  const types: TypeFacts[] = [];

  // Top-level declarations: those of the file and of its namespaces (nested ones too).
  const topLevel: Node[] = [];
  const namespaces: Node[] = [root];
  while (namespaces.length > 0) {
    const scope = namespaces.shift()!;
    for (const node of namedChildren(scope.type === "namespace_declaration" ? field(scope, "body") : scope)) {
      if (node.type === "namespace_declaration" || node.type === "file_scoped_namespace_declaration") namespaces.push(node);
      else if (node.type === "using_directive") {
        const alias = field(node, "name");
        const target = namedChildren(node).find(
          (child) => child.type === "qualified_name" || (child.type === "identifier" && child.startIndex !== alias?.startIndex),
        );
        if (!target) continue;
        const module = target.text.replace(/\s+/g, "");
        imports.add(module);
        // A using directive takes no names: it opens a namespace or type, or binds it to an alias.
        importedNames.push({
          module,
          names: [],
          ...(alias ? { alias: alias.text } : {}),
          ...(hasToken(node, "static") ? { static: true as const } : {}),
          line: lineOf(node),
        });
      } else topLevel.push(node);
    }
  }

  topLevel.sort((a, b) => a.startIndex - b.startIndex);
  const queue: { node: Node; container?: string }[] = topLevel.map((node) => ({ node }));
  while (queue.length > 0) {
    const { node, container } = queue.shift()!;
    const kind = TYPE_KINDS[node.type];
    const name = field(node, "name");
    if (!kind || !name) continue;
    const exported = container === undefined && hasModifier(node, "public");
    types.push({
      name: name.text,
      kind,
      ...(container === undefined ? {} : { container }),
      exported,
      line: lineOf(name),
      endLine: endLineOf(node),
    });
    if (exported) exports.add(name.text);
    const owner = container === undefined ? name.text : `${container}.${name.text}`;
    for (const member of namedChildren(field(node, "body"))) {
      if (member.type === "method_declaration" || member.type === "constructor_declaration") {
        const method = field(member, "name");
        if (method)
          functions.push({
            name: method.text,
            container: owner,
            params: parameterNames(field(member, "parameters")),
            async: hasModifier(member, "async"),
            exported: false,
            line: lineOf(method),
            endLine: endLineOf(member),
          });
      } else if (TYPE_KINDS[member.type]) queue.push({ node: member, container: owner });
    }
  }
  return { exports: exports.values, imports: imports.values, importedNames, functions, types, dependencies: imports.values };
}

/** Names of a parameter list; a `params` array's type and name sit in the list itself. */
function parameterNames(list: Node | null): string[] {
  if (!list) return [];
  const names: string[] = [];
  for (let i = 0; i < list.childCount; i++) {
    const child = list.child(i);
    if (!child) continue;
    if (child.type === "parameter") {
      const name = field(child, "name");
      if (name) names.push(name.text);
    } else if (list.fieldNameForChild(i) === "name") names.push(child.text);
  }
  return names;
}

function hasModifier(node: Node, modifier: string): boolean {
  return namedChildren(node).some((child) => child.type === "modifier" && child.text === modifier);
}
