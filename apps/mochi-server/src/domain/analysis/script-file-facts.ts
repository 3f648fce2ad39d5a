/**
 * TypeScript and JavaScript facts from the tree-sitter syntax tree (core's typescript, tsx or
 * javascript grammar): declarations with their kinds, chunks with JSDoc, imports with their style,
 * error handling and pattern occurrences. Each file is read on its own, so the result never
 * depends on other files. (It replaced a reader on the TypeScript compiler's syntax tree, which
 * gave nothing more: the catalog uses no type checker.)
 */
import type { Node } from "web-tree-sitter";
import { bindingNodes, field, hasToken, lineOf, namedChildren, stringValue } from "@local-mcp/core/code-analysis";
import { CATCH_QUALITY, FactsCollector, LONG_CONTAINER_LINES, catchStyleOf, endLineOf } from "./syntax-tree-facts.js";
import { cleanDocComment, type IdentifierKind, type PatternName } from "./source-facts.js";

const FACTORY_NAME = /^(?:create|make|build)[A-Z0-9_]/;
const DEFINE_CALL = /^define[A-Z]/;
const REGISTER_NAME = /^register[A-Z_]?/;
const ERROR_CLASS = /(?:Error|Exception)$/;
const OPTIONS_TYPE = /(?:Options|Config|Settings|Params|Opts)$/;
/** A declared return type that is a Result union (possibly in a Promise). */
const RESULT_RETURN = /^(?:Promise<)?(?:Result|Either|Outcome)</;
const SCHEMA_ROOTS = new Set(["z", "zod", "Joi", "yup"]);
const DISPOSE_METHODS = new Set(["dispose", "close", "destroy", "[Symbol.dispose]", "[Symbol.asyncDispose]"]);
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);
// An overload signature (`function f(a: string): void;`) is declared and chunked as the compiler-based reader did.
const FUNCTION_DECLARATIONS = new Set(["function_declaration", "generator_function_declaration", "function_signature"]);
const CLASS_NODES = new Set(["class_declaration", "abstract_class_declaration", "class"]);
const NESTED_FUNCTIONS = new Set([...FUNCTION_VALUES, ...FUNCTION_DECLARATIONS, "method_definition"]);
/** Deeper syntax is not read (the compiler-based reader overflowed the stack there). */
const MAX_DEPTH = 400;

export function scriptFileFacts(root: Node): { facts: FactsCollector; usesTestGlobals: boolean } {
  const reader = new ScriptReader();
  for (const statement of namedChildren(root)) reader.visit(statement, 0);
  // In visit order, which is source order (patterns of one declaration in the order they are checked).
  return { facts: reader.facts, usesTestGlobals: /\b(?:describe|it|test)\s*\(/.test(root.text) };
}

class ScriptReader {
  readonly facts = new FactsCollector();
  /** Names of the enclosing functions/classes, innermost last. */
  private readonly scope: string[] = [];

  private get enclosing(): string {
    return this.scope.at(-1) ?? "(module)";
  }

  private hit(pattern: PatternName, symbol: string, node: Node, quality = 1): void {
    this.facts.hit(pattern, symbol, lineOf(node), endLineOf(node), quality);
  }

  private chunk(symbol: string, kind: IdentifierKind, node: Node, exported: boolean): void {
    this.facts.chunk(symbol, kind, lineOf(node), endLineOf(node), exported, jsDocAbove(node));
  }

  visit(node: Node, depth: number): void {
    if (depth > MAX_DEPTH) return;
    switch (node.type) {
      case "import_statement":
        this.importStatement(node);
        return;
      case "export_statement":
        return this.exportStatement(node, depth);
      case "call_expression":
        this.call(node);
        break;
      case "throw_statement":
        this.throwStatement(node);
        break;
      case "try_statement":
        this.tryStatement(node);
        break;
      case "object":
        this.objectLiteral(node);
        break;
      // `catch (error)` and `for (const x of …)` bind variables too.
      case "catch_clause":
        for (const name of bindingNodes(field(node, "parameter"))) this.facts.declare("variable", name.text, lineOf(name));
        break;
      case "for_in_statement":
        if (hasToken(node, "const") || hasToken(node, "let") || hasToken(node, "var"))
          for (const name of bindingNodes(field(node, "left"))) this.facts.declare("variable", name.text, lineOf(name));
        break;
    }
    if (FUNCTION_DECLARATIONS.has(node.type)) return this.functionDeclaration(node, node, false, depth);
    if (node.type === "method_definition" && node.parent?.type === "object") return this.objectMethod(node, depth);
    if (CLASS_NODES.has(node.type)) return this.classLike(node, node, false, depth);
    if (node.type === "interface_declaration" || node.type === "type_alias_declaration" || node.type === "enum_declaration")
      this.typeDeclaration(node, node, false);
    else if (node.type === "lexical_declaration" || node.type === "variable_declaration") return this.variables(node, node, false, depth);
    this.visitChildren(node, depth);
  }

  private visitChildren(node: Node, depth: number): void {
    for (const child of namedChildren(node)) this.visit(child, depth + 1);
  }

  private exportStatement(statement: Node, depth: number): void {
    const source = field(statement, "source");
    // The grammar reads TypeScript 5's `export type * from` with the `type` in an ERROR node.
    const typeOnly = hasToken(statement, "type") || namedChildren(statement).some((c) => c.type === "ERROR" && c.text === "type");
    if (source) this.facts.imports.push({ specifier: stringValue(source), style: "esm-reexport", typeOnly });
    const declaration = field(statement, "declaration");
    if (!declaration) return this.visitChildren(statement, depth);
    const isDefault = hasToken(statement, "default");
    if (FUNCTION_DECLARATIONS.has(declaration.type)) this.functionDeclaration(declaration, statement, true, depth);
    else if (CLASS_NODES.has(declaration.type)) this.classLike(declaration, statement, true, depth, isDefault);
    else if (["interface_declaration", "type_alias_declaration", "enum_declaration"].includes(declaration.type))
      this.typeDeclaration(declaration, statement, true);
    else if (declaration.type === "lexical_declaration" || declaration.type === "variable_declaration")
      this.variables(declaration, statement, true, depth);
    else this.visit(declaration, depth + 1);
  }

  /** `outer` is the statement (the export statement of an exported declaration): a chunk spans it. */
  private functionDeclaration(node: Node, outer: Node, exported: boolean, depth: number): void {
    const nameNode = field(node, "name");
    const name = nameNode?.text ?? "default";
    if (nameNode) this.facts.declare("function", name, lineOf(nameNode), exported);
    if (outer.parent?.type === "program") this.chunk(name, "function", outer, exported);
    this.functionPatterns(name, node, node);
    this.within(name, node, depth);
  }

  /** A method of an object literal (`return { findUser() {…} }`): named after the enclosing function. */
  private objectMethod(node: Node, depth: number): void {
    const nameNode = field(node, "name");
    const name = memberName(nameNode);
    // A getter or setter of an object literal is not named as a method.
    if (nameNode?.type === "property_identifier" && !hasToken(node, "get") && !hasToken(node, "set"))
      this.facts.declare("method", nameNode.text, lineOf(nameNode));
    const symbol = this.scope.length > 0 ? `${this.enclosing}.${name}` : name;
    this.functionPatterns(symbol, node, node, false);
    this.within(symbol, node, depth);
  }

  /** Patterns a function shows by its name and parameters; `snippet` is what an example shows. */
  private functionPatterns(name: string, fn: Node, snippet: Node, canBeFactory = true): void {
    const short = name.slice(name.lastIndexOf(".") + 1);
    if (canBeFactory && FACTORY_NAME.test(short)) this.hit("factory-function", name, snippet, returnsObject(fn) ? 2 : 1);
    if (REGISTER_NAME.test(short)) this.hit("registry", name, snippet, 1);
    const parameters = parametersOf(fn);
    const last = parameters.at(-1);
    if (last && isOptionsParameter(last)) this.hit("options-object", name, snippet, 1);
    if (parameters.some((p) => typeOf(p)?.includes("AbortSignal"))) this.hit("abort-signal", name, snippet, 2);
    const returns = field(fn, "return_type");
    if (returns && RESULT_RETURN.test(typeText(returns))) this.hit("result-type", name, snippet, 1);
    for (const parameter of parameters) this.parameter(parameter, fn);
  }

  private parameter(parameter: Node, fn: Node): void {
    const pattern =
      parameter.type === "required_parameter" || parameter.type === "optional_parameter" ? field(parameter, "pattern") : parameter;
    const isProperty =
      (fn.type === "method_definition" &&
        field(fn, "name")?.text === "constructor" &&
        namedChildren(parameter).some((c) => c.type === "accessibility_modifier" || c.type === "override_modifier")) ||
      (fn.type === "method_definition" && field(fn, "name")?.text === "constructor" && hasToken(parameter, "readonly"));
    for (const name of bindingNodes(pattern)) {
      if (name.text === "this") continue;
      this.facts.declare(isProperty ? "property" : "parameter", name.text, lineOf(name));
    }
  }

  /** Visits a body with `name` as the enclosing scope (parameter defaults included). */
  private within(name: string, node: Node, depth: number): void {
    this.scope.push(name);
    for (const parameter of parametersOf(node)) {
      const value = field(parameter, "value");
      if (value) this.visit(value, depth + 1);
    }
    const body = field(node, "body");
    if (body) this.visit(body, depth + 1);
    this.scope.pop();
  }

  private classLike(node: Node, outer: Node, exported: boolean, depth: number, isDefault = false): void {
    const nameNode = field(node, "name");
    const name = nameNode?.text ?? (node.type === "class" ? "(class)" : "default");
    if (nameNode) this.facts.declare("class", name, lineOf(nameNode), exported);
    const base = extendsOf(node);
    const members = namedChildren(field(node, "body")).filter((m) => !m.type.includes("comment") && m.type !== "decorator");
    if (base !== undefined && (base === "Error" || ERROR_CLASS.test(base)))
      this.hit("custom-error-class", name, node, members.length > 0 ? 2 : 1);
    if (node.type === "abstract_class_declaration") this.hit("abstract-base-class", name, node, 2);
    if (members.some((m) => DISPOSE_METHODS.has(memberName(field(m, "name"))))) this.hit("disposable-resource", name, node, 1);
    const fluent = members.filter((m) => m.type === "method_definition" && returnsThis(field(m, "body"))).length;
    if (fluent >= 2) this.hit("fluent-builder", name, node, fluent);

    const long = endLineOf(node) - lineOf(node) + 1 > LONG_CONTAINER_LINES;
    const chunked = outer.parent?.type === "program" && node.type !== "class";
    if (chunked && !long) this.chunk(isDefault && !nameNode ? "default" : name, "class", outer, exported);
    this.scope.push(name);
    for (const member of members) {
      const memberNode = field(member, "name");
      const memberText = memberName(memberNode);
      if (member.type === "method_definition" && memberText === "constructor") {
        const last = parametersOf(member).at(-1);
        if (last && isOptionsParameter(last)) this.hit("options-object", `${name}.constructor`, member, 1);
        for (const p of parametersOf(member)) this.parameter(p, member);
        this.scope.push(`${name}.constructor`);
        const body = field(member, "body");
        if (body) this.visit(body, depth + 1);
        this.scope.pop();
      } else if (member.type === "method_definition" || member.type === "method_signature" || member.type === "abstract_method_signature") {
        if (memberNode && (memberNode.type === "property_identifier" || memberNode.type === "private_property_identifier"))
          this.facts.declare("method", memberNode.text, lineOf(memberNode));
        const symbol = `${name}.${memberText}`;
        const body = field(member, "body");
        if (chunked && long && body) this.chunk(symbol, "method", member, exported);
        this.functionPatterns(symbol, member, member, hasToken(member, "static"));
        this.scope.push(symbol);
        if (body) this.visit(body, depth + 1);
        this.scope.pop();
      } else if (member.type === "public_field_definition" || member.type === "field_definition") {
        const property = memberNode ?? field(member, "property");
        if (property && (property.type === "property_identifier" || property.type === "private_property_identifier"))
          this.facts.declare("property", property.text, lineOf(property));
        const value = field(member, "value");
        if (value) this.visit(value, depth + 1);
      } else {
        this.visit(member, depth + 1);
      }
    }
    this.scope.pop();
  }

  private typeDeclaration(node: Node, outer: Node, exported: boolean): void {
    const nameNode = field(node, "name");
    if (!nameNode) return;
    const name = nameNode.text;
    const kind: IdentifierKind = node.type === "interface_declaration" ? "interface" : node.type === "enum_declaration" ? "enum" : "type";
    this.facts.declare(kind, name, lineOf(nameNode), exported);
    if (outer.parent?.type === "program") this.chunk(name, kind, outer, exported);
    if (node.type !== "type_alias_declaration") return;
    const value = field(node, "value");
    if (value?.type !== "union_type") return;
    const objects = unionMembers(value).filter((t) => t.type === "object_type");
    const discriminants = commonLiteralProperties(objects);
    if ((objects.length >= 2 && (discriminants.has("ok") || discriminants.has("success"))) || /(?:Result|Either|Outcome)$/.test(name)) {
      this.hit("result-type", name, outer, objects.length >= 2 ? 2 : 1);
    } else if (objects.length >= 2 && discriminants.size > 0) {
      this.hit("discriminated-union", name, outer, objects.length);
    }
  }

  private variables(declaration: Node, outer: Node, exported: boolean, depth: number): void {
    const topLevel = outer.parent?.type === "program";
    const isConst = hasToken(declaration, "const");
    const spansLines = endLineOf(outer) > lineOf(outer);
    for (const declarator of namedChildren(declaration)) {
      if (declarator.type !== "variable_declarator") continue;
      const target = field(declarator, "name");
      const init = field(declarator, "value");
      const isFunction = init !== null && FUNCTION_VALUES.has(init.type);
      for (const name of bindingNodes(target)) {
        const kind: IdentifierKind = isFunction ? "function" : topLevel && isConst ? "constant" : "variable";
        this.facts.declare(kind, name.text, lineOf(name), exported);
      }
      if (topLevel && target?.type === "identifier") {
        const name = target.text;
        if (isFunction || (spansLines && (exported || isDefinitionCall(init))))
          this.chunk(name, isFunction ? "function" : "constant", outer, exported);
        if (init) {
          if (isDefinitionCall(init)) this.hit("definition-object", name, outer, 2);
          if (init.type === "new_expression" && field(init, "constructor")?.text === "Map") this.hit("registry", name, outer, 1);
          const elements = init.type === "array" ? namedChildren(init) : [];
          if (elements.length >= 3 && elements.every((e) => e.type === "identifier")) this.hit("registry", name, outer, 2);
          if (schemaRoot(init) !== undefined) this.hit("schema-validation", name, outer, 1);
        }
      }
      if (init && isFunction && target?.type === "identifier") {
        this.functionPatterns(target.text, init, topLevel ? outer : declarator);
        this.within(target.text, init, depth);
      } else if (init) {
        this.visit(init, depth + 1);
      }
    }
  }

  private importStatement(node: Node): void {
    const require = namedChildren(node).find((c) => c.type === "import_require_clause");
    if (require) {
      const source = field(require, "source");
      if (source) this.facts.imports.push({ specifier: stringValue(source), style: "commonjs-require", typeOnly: hasToken(node, "type") });
      return;
    }
    const source = field(node, "source");
    if (!source) return;
    const specifier = stringValue(source);
    const clause = namedChildren(node).find((c) => c.type === "import_clause");
    if (!clause) {
      this.facts.imports.push({ specifier, style: "esm-side-effect", typeOnly: false });
      return;
    }
    const parts = namedChildren(clause);
    const named = parts.find((p) => p.type === "named_imports");
    const specifiers = namedChildren(named).filter((s) => s.type === "import_specifier");
    const hasDefault = parts.some((p) => p.type === "identifier");
    const typeOnly = hasToken(node, "type") || (specifiers.length > 0 && !hasDefault && specifiers.every((s) => hasToken(s, "type")));
    const style = parts.some((p) => p.type === "namespace_import") ? "esm-namespace" : named ? "esm-named" : "esm-default";
    this.facts.imports.push({ specifier, style, typeOnly });
  }

  private call(node: Node): void {
    const callee = field(node, "function");
    const first = namedChildren(field(node, "arguments"))[0];
    const literal = first?.type === "string" ? stringValue(first) : undefined;
    if (callee?.type === "identifier" && callee.text === "require" && literal !== undefined) {
      this.facts.imports.push({ specifier: literal, style: "commonjs-require", typeOnly: false });
    } else if (callee?.type === "import" && literal !== undefined) {
      this.facts.imports.push({ specifier: literal, style: "dynamic-import", typeOnly: false });
    } else if (callee?.type === "member_expression" && field(callee, "property")?.text === "catch") {
      this.facts.errors.promiseCatches += 1;
    }
  }

  private throwStatement(node: Node): void {
    const thrown = namedChildren(node).find((c) => !c.type.includes("comment"));
    if (thrown?.type === "new_expression") this.facts.errors.thrown.push(field(thrown, "constructor")?.text ?? "(existing error value)");
    else if (thrown?.type === "call_expression") this.facts.errors.thrown.push(`${field(thrown, "function")?.text ?? ""}()`);
    else this.facts.errors.thrown.push("(existing error value)");
  }

  private tryStatement(node: Node): void {
    this.facts.errors.tryBlocks += 1;
    const handler = field(node, "handler");
    if (!handler) return;
    const style = catchStyleOf(field(handler, "body"), ["throw_statement"], NESTED_FUNCTIONS);
    this.facts.errors.catches[style] += 1;
    this.hit("error-handling", this.enclosing, node, CATCH_QUALITY[style]);
  }

  private objectLiteral(node: Node): void {
    for (const pair of namedChildren(node)) {
      if (pair.type !== "pair") continue;
      const key = field(pair, "key");
      if (key?.type === "property_identifier" && (key.text === "ok" || key.text === "success") && field(pair, "value")?.type === "false")
        this.facts.errors.errorValues += 1;
    }
  }
}

/** The `/** … *\/` comment right before a statement (comments between are skipped, as the compiler's leading trivia). */
function jsDocAbove(node: Node): string | undefined {
  let previous = node.previousSibling;
  let jsdoc: Node | undefined;
  while (previous?.type === "comment") {
    if (previous.text.startsWith("/**") && !jsdoc) jsdoc = previous;
    previous = previous.previousSibling;
  }
  if (!jsdoc) return undefined;
  const doc = cleanDocComment(jsdoc.text);
  return doc.length > 0 ? doc : undefined;
}

function parametersOf(fn: Node): Node[] {
  const parameters = field(fn, "parameters");
  if (parameters) return namedChildren(parameters).filter((p) => !p.type.includes("comment") && p.type !== "decorator");
  const single = field(fn, "parameter");
  return single ? [single] : [];
}

function typeOf(parameter: Node): string | undefined {
  const type = field(parameter, "type");
  return type ? typeText(type) : undefined;
}

/** A type annotation's type, without the colon. */
function typeText(annotation: Node): string {
  return annotation.text.replace(/^:\s*/, "").replace(/\s+/g, " ");
}

function memberName(name: Node | null): string {
  if (!name) return "";
  if (name.type === "string") return stringValue(name);
  if (name.type === "computed_property_name") return name.text.replace(/\s+/g, "");
  return name.text;
}

function extendsOf(classNode: Node): string | undefined {
  const heritage = namedChildren(classNode).find((c) => c.type === "class_heritage");
  if (!heritage) return undefined;
  const clause = namedChildren(heritage).find((c) => c.type === "extends_clause");
  const value = clause ? (field(clause, "value") ?? namedChildren(clause)[0]) : namedChildren(heritage)[0];
  return value?.text;
}

function isOptionsParameter(parameter: Node): boolean {
  const annotation = field(parameter, "type");
  const type = annotation ? namedChildren(annotation)[0] : undefined;
  if (type?.type === "type_identifier" || type?.type === "nested_type_identifier" || type?.type === "generic_type")
    return OPTIONS_TYPE.test((type.type === "generic_type" ? field(type, "name") : type)?.text ?? "");
  if (type?.type === "object_type") return namedChildren(type).filter((m) => !m.type.includes("comment")).length >= 2;
  const pattern = field(parameter, "pattern");
  return pattern?.type === "identifier" && /^(?:options|opts|config)$/.test(pattern.text) && type !== undefined;
}

/** Whether a function returns an object literal or a `new` object (not counting nested functions). */
function returnsObject(fn: Node): boolean {
  const body = field(fn, "body");
  if (!body) return false;
  if (["parenthesized_expression", "object", "new_expression"].includes(body.type)) return true;
  return someReturn(body, (value) => value?.type === "object" || value?.type === "new_expression");
}

function returnsThis(body: Node | null): boolean {
  return body !== null && someReturn(body, (value) => value?.type === "this");
}

function someReturn(node: Node, test: (value: Node | undefined) => boolean, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  for (const child of namedChildren(node)) {
    if (NESTED_FUNCTIONS.has(child.type) || CLASS_NODES.has(child.type)) continue;
    if (child.type === "return_statement") {
      if (test(namedChildren(child).find((c) => !c.type.includes("comment")))) return true;
    } else if (someReturn(child, test, depth + 1)) return true;
  }
  return false;
}

function isDefinitionCall(init: Node | null): boolean {
  if (init?.type !== "call_expression") return false;
  const callee = field(init, "function");
  const first = namedChildren(field(init, "arguments"))[0];
  return callee?.type === "identifier" && DEFINE_CALL.test(callee.text) && first?.type === "object";
}

/** `z` for `z.object({...}).strict()`, when the expression is a call chain rooted at a schema library. */
function schemaRoot(init: Node): string | undefined {
  let node: Node | null = init;
  let calls = 0;
  for (let i = 0; node && i < MAX_DEPTH; i++) {
    if (node.type === "call_expression") {
      calls += 1;
      node = field(node, "function");
    } else if (node.type === "member_expression") node = field(node, "object");
    else break;
  }
  return calls > 0 && node?.type === "identifier" && SCHEMA_ROOTS.has(node.text) ? node.text : undefined;
}

function unionMembers(union: Node, depth = 0): Node[] {
  if (depth > MAX_DEPTH) return [];
  return namedChildren(union).flatMap((member) => (member.type === "union_type" ? unionMembers(member, depth + 1) : [member]));
}

/** Property names that hold a literal type in every object member of a union. */
function commonLiteralProperties(members: readonly Node[]): Set<string> {
  let common: Set<string> | undefined;
  for (const member of members) {
    const names = new Set<string>();
    for (const element of namedChildren(member)) {
      if (element.type !== "property_signature") continue;
      const name = field(element, "name");
      const type = field(element, "type");
      const literal = type ? namedChildren(type)[0] : undefined;
      if (name?.type === "property_identifier" && literal?.type === "literal_type") names.add(name.text);
    }
    common = common === undefined ? names : new Set([...common].filter((n) => names.has(n)));
  }
  return common ?? new Set();
}
