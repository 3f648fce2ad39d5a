/**
 * Java: exports are the public top-level types; imports are the imported names as full paths
 * (`java.util.List`, `java.util.*`, a static import's member `org.junit.Assert.assertEquals`).
 */
import type { Node } from "web-tree-sitter";
import type { FunctionFacts, ImportFacts, LanguageFacts, TypeFacts } from "./analysis-types.js";
import { OrderedSet, children, endLineOf, field, hasToken, lineOf, namedChildren } from "./syntax.js";

const TYPE_KINDS: Readonly<Record<string, string>> = {
  class_declaration: "class",
  interface_declaration: "interface",
  enum_declaration: "enum",
  record_declaration: "record",
  annotation_type_declaration: "annotation",
};

export function javaFacts(root: Node): LanguageFacts {
  const exports = new OrderedSet();
  const imports = new OrderedSet();
  const importedNames: ImportFacts[] = [];
  const functions: FunctionFacts[] = [];
  const types: TypeFacts[] = [];

  for (const declaration of namedChildren(root)) {
    if (declaration.type === "import_declaration") {
      const parts = namedChildren(declaration);
      const name = parts.find((part) => part.type === "scoped_identifier" || part.type === "identifier");
      if (!name) continue;
      const path = name.text.replace(/\s+/g, "");
      const all = parts.some((part) => part.type === "asterisk");
      imports.add(path + (all ? ".*" : ""));
      // `java.util.List` takes List from java.util; `java.util.*` takes all of java.util.
      const dot = path.lastIndexOf(".");
      const [module, names] = all ? [path, ["*"]] : dot < 0 ? [path, []] : [path.slice(0, dot), [path.slice(dot + 1)]];
      importedNames.push({
        module,
        names,
        ...(hasToken(declaration, "static") ? { static: true as const } : {}),
        line: lineOf(declaration),
      });
    }
  }

  // Types and their members, breadth-first through nested types (no recursion on deep nesting).
  const queue: { node: Node; container?: string }[] = namedChildren(root).map((node) => ({ node }));
  while (queue.length > 0) {
    const { node, container } = queue.shift()!;
    const kind = TYPE_KINDS[node.type];
    if (!kind) continue;
    const name = field(node, "name");
    if (!name) continue;
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
    const body = field(node, "body");
    const members = namedChildren(body).flatMap((member) => (member.type === "enum_body_declarations" ? namedChildren(member) : [member]));
    for (const member of members) {
      if (member.type === "method_declaration" || member.type === "constructor_declaration") {
        const method = field(member, "name");
        if (!method) continue;
        functions.push({
          name: method.text,
          container: owner,
          params: namedChildren(field(member, "parameters")).flatMap((parameter) => {
            if (parameter.type === "formal_parameter") return [field(parameter, "name")?.text ?? ""];
            if (parameter.type === "spread_parameter") {
              const declarator = namedChildren(parameter).find((child) => child.type === "variable_declarator");
              return declarator ? [field(declarator, "name")?.text ?? ""] : [];
            }
            return [];
          }),
          async: false,
          exported: false,
          line: lineOf(method),
          endLine: endLineOf(member),
        });
      } else if (TYPE_KINDS[member.type]) queue.push({ node: member, container: owner });
    }
  }
  return { exports: exports.values, imports: imports.values, importedNames, functions, types, dependencies: imports.values };
}

function hasModifier(node: Node, modifier: string): boolean {
  const modifiers = namedChildren(node).find((child) => child.type === "modifiers");
  return modifiers ? children(modifiers).some((child) => child.type === modifier) : false;
}
