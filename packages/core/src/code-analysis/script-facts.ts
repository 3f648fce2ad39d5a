/**
 * JavaScript, TypeScript and TSX: exports are every exported binding (declarations, export
 * lists, re-exported names, `default`; CommonJS `exports.x`/`module.exports.x` names, and
 * `module.exports =`/`export =` as `default`, as Node's ES-module interop sees them); imports are
 * the specifiers of `import` statements, `import x = require()`, `require()` and `import()` calls
 * with a literal; `export … from` is a re-export (a dependency, not an import).
 */
import type { Node } from "web-tree-sitter";
import type { FunctionFacts, ImportFacts, LanguageFacts, TypeFacts } from "./analysis-types.js";
import { MAX_NESTING, OrderedSet, descendants, endLineOf, field, hasToken, lineOf, namedChildren, stringValue } from "./syntax.js";

const TYPE_KINDS: Readonly<Record<string, string>> = {
  class_declaration: "class",
  abstract_class_declaration: "class",
  interface_declaration: "interface",
  type_alias_declaration: "type",
  enum_declaration: "enum",
  internal_module: "namespace",
};

const FUNCTION_DECLARATIONS = new Set(["function_declaration", "generator_function_declaration", "function_signature"]);
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "generator_function"]);

export function scriptFacts(root: Node): LanguageFacts {
  const exports = new OrderedSet();
  const reexportSources = new OrderedSet();
  const functions: FunctionFacts[] = [];
  const types: TypeFacts[] = [];
  /** Local names exported under another name or later (`export { a as b }`, `export default a`, CommonJS). */
  const exportedLocals = new Set<string>();
  const implemented = new Set<string>();
  const signatures = new Set<string>();

  const declare = (declaration: Node, exported: boolean, asDefault: boolean) => {
    const node = declaration.type === "ambient_declaration" ? (namedChildren(declaration)[0] ?? declaration) : declaration;
    const name = field(node, "name");
    if (FUNCTION_DECLARATIONS.has(node.type)) {
      // An overload signature stands for the function only when no implementation follows.
      if (node.type === "function_signature") {
        if (!name || implemented.has(name.text) || signatures.has(name.text)) return;
        signatures.add(name.text);
      }
      functions.push(functionFacts(node, name?.text ?? "default", undefined, exported));
      if (exported) exports.add(asDefault ? "default" : name?.text);
    } else if (TYPE_KINDS[node.type]) {
      if (name) types.push({ name: name.text, kind: TYPE_KINDS[node.type]!, exported, line: lineOf(name), endLine: endLineOf(node) });
      if (exported) exports.add(asDefault ? "default" : name?.text);
      if (name && (node.type === "class_declaration" || node.type === "abstract_class_declaration")) methods(node, name.text, functions);
    } else if (node.type === "lexical_declaration" || node.type === "variable_declaration") {
      for (const declarator of namedChildren(node)) {
        if (declarator.type !== "variable_declarator") continue;
        const target = field(declarator, "name");
        const value = field(declarator, "value");
        if (target?.type === "identifier" && value && FUNCTION_VALUES.has(value.type))
          functions.push(functionFacts(value, target.text, undefined, exported, lineOf(target)));
        if (exported) for (const bound of bindingNodes(target)) exports.add(bound.text);
      }
    } else if (exported && asDefault) exports.add("default");
  };

  // Function overloads come before their implementation: find the implementations first.
  for (const statement of namedChildren(root)) {
    const declaration = statement.type === "export_statement" ? field(statement, "declaration") : statement;
    const name = declaration && field(declaration, "name");
    if (declaration && name && (declaration.type === "function_declaration" || declaration.type === "generator_function_declaration"))
      implemented.add(name.text);
  }

  for (const statement of namedChildren(root)) {
    if (statement.type === "export_statement") {
      const source = field(statement, "source");
      const declaration = field(statement, "declaration");
      const value = field(statement, "value");
      const isDefault = hasToken(statement, "default");
      if (declaration) {
        declare(declaration, true, isDefault);
      } else if (value && isDefault) {
        if (FUNCTION_VALUES.has(value.type) || value.type === "class") {
          const name = field(value, "name")?.text ?? "default";
          if (value.type === "class") {
            types.push({ name, kind: "class", exported: true, line: lineOf(value), endLine: endLineOf(value) });
            methods(value, name, functions);
          } else functions.push(functionFacts(value, name, undefined, true));
        }
        if (value.type === "identifier") exportedLocals.add(value.text);
        exports.add("default");
      } else if (hasToken(statement, "=")) {
        const assigned = namedChildren(statement).find((child) => child.type === "identifier");
        if (assigned) exportedLocals.add(assigned.text);
        exports.add("default");
      } else {
        for (const part of namedChildren(statement)) {
          if (part.type === "export_clause")
            for (const specifier of namedChildren(part)) {
              if (specifier.type !== "export_specifier") continue;
              exports.add((field(specifier, "alias") ?? field(specifier, "name"))?.text);
              const local = field(specifier, "name")?.text;
              if (!source && local) exportedLocals.add(local);
            }
          else if (part.type === "namespace_export") exports.add(namedChildren(part)[0]?.text);
        }
      }
      if (source) reexportSources.add(stringValue(source));
    } else if (statement.type === "expression_statement") {
      const commonJs = commonJsExports(statement);
      for (const name of commonJs.names) exports.add(name);
      for (const local of commonJs.locals) exportedLocals.add(local);
    } else {
      declare(statement, false, false);
    }
  }

  const imports = new OrderedSet();
  const importedNames: ImportFacts[] = [];
  for (const node of descendants(root, ["import_statement", "call_expression"])) {
    if (node.type === "import_statement") {
      const requireClause = namedChildren(node).find((c) => c.type === "import_require_clause");
      const source = field(node, "source") ?? field(requireClause ?? node, "source");
      if (!source) continue;
      imports.add(stringValue(source));
      importedNames.push({ module: stringValue(source), names: importClauseNames(node, requireClause), line: lineOf(node) });
      continue;
    }
    const callee = field(node, "function");
    const isRequire = callee?.type === "identifier" && callee.text === "require";
    if (!isRequire && callee?.type !== "import") continue;
    const args = namedChildren(field(node, "arguments"));
    const first = args[0];
    const literal =
      first?.type === "string" ||
      (first?.type === "template_string" && !namedChildren(first).some((c) => c.type === "template_substitution"));
    if (args.length !== 1 || !first || !literal) continue;
    imports.add(stringValue(first));
    importedNames.push({ module: stringValue(first), names: isRequire ? requireNames(node) : [], line: lineOf(node) });
  }

  for (const facts of [...functions, ...types]) if (facts.container === undefined && exportedLocals.has(facts.name)) facts.exported = true;

  const dependencies = new OrderedSet();
  for (const module of [...imports.values, ...reexportSources.values]) dependencies.add(module);
  return { exports: exports.values, imports: imports.values, importedNames, functions, types, dependencies: dependencies.values };
}

/** As local-model's TypeScript path writes them: `X` (a default), `* as ns`, `a`, `a as b`; `import x = require()` → x. */
function importClauseNames(statement: Node, requireClause: Node | undefined): string[] {
  if (requireClause) return namedChildren(requireClause).flatMap((c) => (c.type === "identifier" ? [c.text] : []));
  const clause = namedChildren(statement).find((c) => c.type === "import_clause");
  return namedChildren(clause).flatMap((part) => {
    if (part.type === "identifier") return [part.text];
    if (part.type === "namespace_import") return [`* as ${namedChildren(part)[0]?.text ?? ""}`];
    if (part.type !== "named_imports") return [];
    return namedChildren(part).flatMap((specifier) => {
      if (specifier.type !== "import_specifier") return [];
      const name = field(specifier, "name");
      const alias = field(specifier, "alias");
      if (!name) return [];
      const imported = name.type === "string" ? stringValue(name) : name.text;
      return [alias ? `${imported} as ${alias.text}` : imported];
    });
  });
}

/** `const x = require("m")` → x; `const { a, b: c } = require("m")` → a, `b as c`; a bare `require("m")` takes none. */
function requireNames(call: Node): string[] {
  const declarator = call.parent;
  if (declarator?.type !== "variable_declarator" || field(declarator, "value")?.startIndex !== call.startIndex) return [];
  const target = field(declarator, "name");
  if (target?.type === "identifier") return [target.text];
  if (target?.type !== "object_pattern") return [];
  return namedChildren(target).flatMap((element) => {
    if (element.type !== "pair_pattern") return bindingNodes(element).map((local) => local.text);
    const key = field(element, "key");
    const imported = key?.type === "string" ? stringValue(key) : key?.text;
    return bindingNodes(field(element, "value")).map((local) =>
      imported === undefined || imported === local.text ? local.text : `${imported} as ${local.text}`,
    );
  });
}

function methods(classNode: Node, container: string, functions: FunctionFacts[]): void {
  for (const member of namedChildren(field(classNode, "body"))) {
    if (member.type !== "method_definition") continue;
    const name = field(member, "name");
    if (name) functions.push(functionFacts(member, name.text, container, false, lineOf(name)));
  }
}

function functionFacts(node: Node, name: string, container: string | undefined, exported: boolean, line?: number): FunctionFacts {
  const parameters = field(node, "parameters") ?? field(node, "parameter");
  const params =
    parameters?.type === "identifier" ? [parameters.text] : namedChildren(parameters).flatMap((parameter) => parameterName(parameter));
  return {
    name,
    ...(container === undefined ? {} : { container }),
    params,
    async: hasToken(node, "async"),
    exported,
    line: line ?? lineOf(field(node, "name") ?? node),
    endLine: endLineOf(node),
  };
}

function parameterName(parameter: Node): string[] {
  const pattern =
    parameter.type === "required_parameter" || parameter.type === "optional_parameter" ? field(parameter, "pattern") : parameter;
  if (!pattern || pattern.type === "this" || pattern.type === "comment") return [];
  if (pattern.type === "assignment_pattern") return [field(pattern, "left")?.text ?? pattern.text];
  return [pattern.text.replace(/\s+/g, " ")];
}

/** The identifiers a JS/TS declaration target binds: `a`, `{ a, b: c }` → a, c, `[a, ...b]` → a, b. */
export function bindingNodes(target: Node | null, depth = 0): Node[] {
  if (!target || depth > MAX_NESTING) return [];
  switch (target.type) {
    case "identifier":
    case "shorthand_property_identifier_pattern":
      return [target];
    case "pair_pattern":
      return bindingNodes(field(target, "value"), depth + 1);
    case "assignment_pattern":
    case "object_assignment_pattern":
      return bindingNodes(field(target, "left"), depth + 1);
    case "rest_pattern":
    case "object_pattern":
    case "array_pattern":
      return namedChildren(target).flatMap((child) => bindingNodes(child, depth + 1));
    default:
      return [];
  }
}

/**
 * `exports.x = …`, `module.exports.x = …` → x; `module.exports = { a, b: 1 }` → default, a, b;
 * `module.exports = v` → default. `locals` are the file's own bindings so exported (`a`, `v`).
 */
function commonJsExports(statement: Node): { names: string[]; locals: string[] } {
  const none = { names: [], locals: [] };
  const assignment = namedChildren(statement)[0];
  if (assignment?.type !== "assignment_expression") return none;
  const left = field(assignment, "left");
  const right = field(assignment, "right");
  if (left?.type !== "member_expression") return none;
  const object = field(left, "object");
  const property = field(left, "property")?.text;
  const locals = right?.type === "identifier" ? [right.text] : [];
  if (object?.text === "module" && property === "exports") {
    const names = ["default"];
    if (right?.type === "object")
      for (const entry of namedChildren(right)) {
        if (entry.type === "shorthand_property_identifier") {
          names.push(entry.text);
          locals.push(entry.text);
        } else if (entry.type === "pair" || entry.type === "method_definition") {
          const key = field(entry, entry.type === "pair" ? "key" : "name");
          if (key?.type === "property_identifier") names.push(key.text);
          else if (key?.type === "string") names.push(stringValue(key));
          const value = entry.type === "pair" ? field(entry, "value") : null;
          if (value?.type === "identifier") locals.push(value.text);
        }
      }
    return { names, locals };
  }
  const isExportsObject = object?.type === "identifier" ? object.text === "exports" : object?.text === "module.exports";
  return isExportsObject && property ? { names: [property], locals } : none;
}
