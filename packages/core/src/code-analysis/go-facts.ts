/**
 * Go: exports are the capitalised top-level identifiers (types, funcs, vars, consts; not methods
 * or fields); imports are the import paths.
 */
import type { Node } from "web-tree-sitter";
import type { FunctionFacts, ImportFacts, LanguageFacts, TypeFacts } from "./analysis-types.js";
import { OrderedSet, endLineOf, field, lineOf, namedChildren, stringValue } from "./syntax.js";

/** Go's rule: an identifier is exported when its first character is an upper-case letter. */
const isExported = (name: string) => /^\p{Lu}/u.test(name);

export function goFacts(root: Node): LanguageFacts {
  const exports = new OrderedSet();
  const imports = new OrderedSet();
  const importedNames: ImportFacts[] = [];
  const functions: FunctionFacts[] = [];
  const types: TypeFacts[] = [];
  const add = (name: string | undefined) => {
    if (name !== undefined && isExported(name)) exports.add(name);
  };

  for (const declaration of namedChildren(root)) {
    switch (declaration.type) {
      case "import_declaration":
        for (const spec of specs(declaration, "import_spec")) {
          const path = field(spec, "path");
          if (!path) continue;
          imports.add(stringValue(path));
          // A package import takes no names: `f "fmt"` binds the package to f, `_` to nothing; `. "fmt"` takes all its names.
          const name = field(spec, "name");
          importedNames.push({
            module: stringValue(path),
            names: name?.type === "dot" ? ["*"] : [],
            ...(name && name.type !== "dot" ? { alias: name.text } : {}),
            line: lineOf(spec),
          });
        }
        break;
      case "type_declaration":
        for (const spec of namedChildren(declaration)) {
          const name = field(spec, "name");
          if (!name || (spec.type !== "type_spec" && spec.type !== "type_alias")) continue;
          const type = field(spec, "type")?.type;
          const kind =
            spec.type === "type_alias" ? "alias" : type === "struct_type" ? "struct" : type === "interface_type" ? "interface" : "type";
          types.push({ name: name.text, kind, exported: isExported(name.text), line: lineOf(name), endLine: endLineOf(spec) });
          add(name.text);
        }
        break;
      case "var_declaration":
      case "const_declaration":
        for (const spec of specs(declaration, declaration.type === "var_declaration" ? "var_spec" : "const_spec"))
          for (const name of spec.childrenForFieldName("name")) add(name?.text);
        break;
      case "function_declaration":
      case "method_declaration": {
        const name = field(declaration, "name");
        if (!name) break;
        const receiver = declaration.type === "method_declaration" ? receiverType(declaration) : undefined;
        functions.push({
          name: name.text,
          ...(receiver === undefined ? {} : { container: receiver }),
          params: namedChildren(field(declaration, "parameters")).flatMap((parameter) =>
            parameter.childrenForFieldName("name").flatMap((n) => (n ? [n.text] : [])),
          ),
          async: false,
          exported: receiver === undefined && isExported(name.text),
          line: lineOf(name),
          endLine: endLineOf(declaration),
        });
        if (receiver === undefined) add(name.text);
        break;
      }
    }
  }
  return { exports: exports.values, imports: imports.values, importedNames, functions, types, dependencies: imports.values };
}

/** The specs of a declaration, whether written alone or in a parenthesised list. */
function specs(declaration: Node, type: string): Node[] {
  return namedChildren(declaration).flatMap((child) =>
    child.type === type ? [child] : namedChildren(child).filter((c) => c.type === type),
  );
}

/** `(c *circle)` → circle; `(p Point[T])` → Point. */
function receiverType(method: Node): string | undefined {
  let type = namedChildren(field(method, "receiver"))[0]?.childForFieldName("type") ?? null;
  while (type && (type.type === "pointer_type" || type.type === "generic_type" || type.type === "parenthesized_type"))
    type = type.type === "generic_type" ? field(type, "type") : (namedChildren(type)[0] ?? null);
  return type?.text;
}
