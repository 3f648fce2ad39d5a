/**
 * Python: exports are `__all__`'s strings when the module assigns it, else the public names the
 * module defines at top level (def, class, assignment; also inside module-level if/try/with
 * blocks; not the names it imports); imports are every imported module anywhere in the file.
 */
import type { Node } from "web-tree-sitter";
import type { FunctionFacts, ImportFacts, LanguageFacts, TypeFacts } from "./analysis-types.js";
import { MAX_NESTING, OrderedSet, descendants, endLineOf, field, hasToken, lineOf, namedChildren, stringValue } from "./syntax.js";

/** Blocks whose statements still run at module level. */
const MODULE_LEVEL_BLOCKS = new Set([
  "if_statement",
  "elif_clause",
  "else_clause",
  "try_statement",
  "except_clause",
  "finally_clause",
  "with_statement",
]);

export function pythonFacts(root: Node): LanguageFacts {
  const statements = moduleStatements(root);
  const defined = new OrderedSet();
  let all: OrderedSet | undefined;
  /** `__all__` built by code (not string literals): the public names stand in for it. */
  let dynamicAll = false;
  const functions: FunctionFacts[] = [];
  const types: TypeFacts[] = [];
  const topLevel: { facts: FunctionFacts | TypeFacts }[] = [];

  for (const statement of statements) {
    const definition = statement.type === "decorated_definition" ? field(statement, "definition") : statement;
    if (definition?.type === "function_definition") {
      const facts = functionFacts(definition, undefined);
      if (facts) {
        functions.push(facts);
        topLevel.push({ facts });
        defined.add(facts.name);
      }
    } else if (definition?.type === "class_definition") {
      const name = field(definition, "name");
      if (!name) continue;
      const facts: TypeFacts = { name: name.text, kind: "class", exported: false, line: lineOf(name), endLine: endLineOf(definition) };
      types.push(facts);
      topLevel.push({ facts });
      defined.add(name.text);
      classMembers(definition, name.text, functions, types);
    } else if (statement.type === "expression_statement") {
      for (const expression of namedChildren(statement)) {
        if (expression.type === "assignment") {
          const left = field(expression, "left");
          if (left?.type === "identifier" && left.text === "__all__") {
            all = new OrderedSet();
            if (!addStrings(all, field(expression, "right"))) dynamicAll = true;
          } else for (const name of boundNames(left)) defined.add(name);
        } else if (expression.type === "augmented_assignment" && field(expression, "left")?.text === "__all__") {
          all ??= new OrderedSet();
          if (!addStrings(all, field(expression, "right"))) dynamicAll = true;
        } else if (expression.type === "call" && all) {
          const callee = field(expression, "function");
          if (callee?.type === "attribute" && field(callee, "object")?.text === "__all__") {
            const method = field(callee, "attribute")?.text;
            if (method === "extend" || method === "append") {
              for (const argument of namedChildren(field(expression, "arguments"))) if (!addStrings(all, argument)) dynamicAll = true;
            }
          }
        }
      }
    }
  }

  const exports = all && !dynamicAll ? all.values : defined.values.filter((name) => !name.startsWith("_"));
  const exported = new Set(exports);
  for (const { facts } of topLevel) facts.exported = exported.has(facts.name);

  const imports = new OrderedSet();
  const importedNames: ImportFacts[] = [];
  const compact = (node: Node | null | undefined) => node?.text.replace(/\s+/g, "");
  for (const node of descendants(root, ["import_statement", "import_from_statement", "future_import_statement"])) {
    const line = lineOf(node);
    if (node.type === "import_statement") {
      // `import a.b as c`: the module itself, bound to a name (no names taken from it).
      for (const name of node.childrenForFieldName("name")) {
        const module = compact(name?.type === "aliased_import" ? field(name, "name") : name);
        if (!module) continue;
        imports.add(module);
        const alias = name?.type === "aliased_import" ? field(name, "alias")?.text : undefined;
        importedNames.push({ module, names: [], ...(alias === undefined ? {} : { alias }), line });
      }
      continue;
    }
    const module = node.type === "future_import_statement" ? "__future__" : compact(field(node, "module_name"));
    if (!module) continue;
    imports.add(module);
    const names = node.childrenForFieldName("name").flatMap((name) => {
      if (name?.type !== "aliased_import") return name ? [compact(name) ?? ""] : [];
      return [`${compact(field(name, "name"))} as ${field(name, "alias")?.text}`];
    });
    if (namedChildren(node).some((child) => child.type === "wildcard_import")) names.push("*");
    importedNames.push({ module, names, line });
  }
  return { exports, imports: imports.values, importedNames, functions, types, dependencies: imports.values };
}

/** The statements that run at module level, in order (module-level if/try/with blocks opened). */
function moduleStatements(root: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [...namedChildren(root)].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (MODULE_LEVEL_BLOCKS.has(node.type) || node.type === "block") {
      const inner = namedChildren(node).filter((child) => MODULE_LEVEL_BLOCKS.has(child.type) || child.type === "block");
      stack.push(...inner.reverse());
    } else out.push(node);
  }
  return out;
}

/** Methods and nested classes of a class, at any depth of nested classes (iteratively). */
function classMembers(definition: Node, container: string, functions: FunctionFacts[], types: TypeFacts[]): void {
  const stack: { node: Node; container: string }[] = [{ node: definition, container }];
  while (stack.length > 0) {
    const { node, container: owner } = stack.shift()!;
    for (const member of namedChildren(field(node, "body"))) {
      const inner = member.type === "decorated_definition" ? field(member, "definition") : member;
      if (inner?.type === "function_definition") {
        const facts = functionFacts(inner, owner);
        if (facts) functions.push(facts);
      } else if (inner?.type === "class_definition") {
        const name = field(inner, "name");
        if (!name) continue;
        types.push({ name: name.text, kind: "class", container: owner, exported: false, line: lineOf(name), endLine: endLineOf(inner) });
        stack.push({ node: inner, container: `${owner}.${name.text}` });
      }
    }
  }
}

function functionFacts(definition: Node, container: string | undefined): FunctionFacts | undefined {
  const name = field(definition, "name");
  if (!name) return undefined;
  return {
    name: name.text,
    ...(container === undefined ? {} : { container }),
    params: namedChildren(field(definition, "parameters")).flatMap(parameterName),
    async: hasToken(definition, "async"),
    exported: false,
    line: lineOf(name),
    endLine: endLineOf(definition),
  };
}

function parameterName(parameter: Node): string[] {
  switch (parameter.type) {
    case "identifier":
    case "list_splat_pattern":
    case "dictionary_splat_pattern":
      return [parameter.text];
    case "default_parameter":
    case "typed_default_parameter":
      return [field(parameter, "name")?.text ?? parameter.text];
    case "typed_parameter": {
      const inner = namedChildren(parameter)[0];
      return inner ? [inner.text] : [];
    }
    default:
      return [];
  }
}

/** Names an assignment target binds: `a`, `a, (b, c)`, `[a, *b]`; not attributes or subscripts. */
function boundNames(target: Node | null, depth = 0): string[] {
  if (!target || depth > MAX_NESTING) return [];
  if (target.type === "identifier") return [target.text];
  if (["pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "parenthesized_expression"].includes(target.type))
    return namedChildren(target).flatMap((child) => boundNames(child, depth + 1));
  return [];
}

/** Adds the strings of a literal (a string, a list or tuple of them, `+` of those); false when it is not one. */
function addStrings(to: OrderedSet, node: Node | null, depth = 0): boolean {
  if (!node || depth > MAX_NESTING) return false;
  if (node.type === "string") {
    to.add(stringValue(node));
    return true;
  }
  if (node.type === "list" || node.type === "tuple" || node.type === "parenthesized_expression")
    return namedChildren(node).every((item) => item.type === "comment" || addStrings(to, item, depth + 1));
  if (node.type === "binary_operator") return [field(node, "left"), field(node, "right")].every((side) => addStrings(to, side, depth + 1));
  return false;
}
