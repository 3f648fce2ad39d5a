/**
 * Python facts from the tree-sitter syntax tree: declarations (classes, functions, methods,
 * parameters without self/cls, module constants and variables, class properties, local
 * variables), chunks with docstrings, imports, raises, try/except styles and patterns. Exported
 * means in core's exports (`__all__` when the module has one, else the public top-level names).
 */
import type { Node } from "web-tree-sitter";
import { descendants, field, lineOf, namedChildren, stringValue, type SourceAnalysis } from "@local-mcp/core/code-analysis";
import { CATCH_QUALITY, FactsCollector, LONG_CONTAINER_LINES, catchStyleOf, endLineOf } from "./syntax-tree-facts.js";
import { indentationOf } from "./code-masking.js";
import type { CatchStyle, IdentifierKind } from "./source-facts.js";

const DISPOSE_METHODS = new Set(["__enter__", "__exit__", "__aenter__", "__aexit__", "close"]);
const UPPER = /^[A-Z][A-Z0-9_]*$/;

interface Scope {
  kind: "class" | "def";
  symbol: string;
}

export function pythonFileFacts(root: Node, analysis: SourceAnalysis): FactsCollector {
  const facts = new FactsCollector();
  const exported = new Set(analysis.exports);

  for (const node of descendants(root, ["import_statement", "import_from_statement", "future_import_statement"])) {
    if (node.type === "import_statement")
      for (const name of node.childrenForFieldName("name")) {
        const module = name?.type === "aliased_import" ? field(name, "name") : name;
        if (module) facts.imports.push({ specifier: module.text.replace(/\s+/g, ""), style: "python-import", typeOnly: false });
      }
    else {
      const module = node.type === "future_import_statement" ? "__future__" : field(node, "module_name")?.text.replace(/\s+/g, "");
      if (module) facts.imports.push({ specifier: module, style: "python-from", typeOnly: false });
    }
  }

  const visitBlock = (block: Node | null, scope: Scope | undefined, topLevel: boolean) => {
    for (const statement of namedChildren(block)) visitStatement(statement, scope, topLevel);
  };

  const visitStatement = (statement: Node, scope: Scope | undefined, topLevel: boolean): void => {
    const definition = statement.type === "decorated_definition" ? field(statement, "definition") : statement;
    const decorators = statement.type === "decorated_definition" ? namedChildren(statement).filter((c) => c.type === "decorator") : [];
    const decoratorNames = decorators.map((d) => d.text.replace(/^@\s*/, "").replace(/\(.*$/s, ""));
    if (definition?.type === "function_definition" || definition?.type === "class_definition") {
      definitionFacts(definition, statement, decoratorNames, scope, topLevel);
      return;
    }
    switch (statement.type) {
      case "expression_statement":
        for (const expression of namedChildren(statement)) assignmentFacts(expression, scope, topLevel);
        break;
      case "raise_statement": {
        const raised = namedChildren(statement)[0];
        const callee = raised?.type === "call" ? field(raised, "function") : raised;
        facts.errors.thrown.push(callee && /^[A-Za-z_][\w.]*$/.test(callee.text) ? callee.text : "(re-raise)");
        break;
      }
      case "try_statement":
        tryFacts(statement, scope);
        break;
    }
    // Statements with blocks (if, for, while, with, match): their bodies run in the same scope.
    for (const child of namedChildren(statement))
      if (child.type === "block") visitBlock(child, scope, false);
      else if (["elif_clause", "else_clause", "except_clause", "finally_clause", "case_clause"].includes(child.type))
        for (const inner of namedChildren(child)) if (inner.type === "block") visitBlock(inner, scope, false);
  };

  const definitionFacts = (definition: Node, outer: Node, decorators: string[], scope: Scope | undefined, topLevel: boolean) => {
    const name = field(definition, "name")?.text;
    if (!name) return;
    const symbol = scope ? `${scope.symbol}.${name}` : name;
    const startLine = lineOf(outer);
    const endLine = endLineOf(outer);
    const body = field(definition, "body");
    const doc = docstringOf(body);
    const isExported = topLevel && exported.has(name);
    if (definition.type === "function_definition") {
      const inClass = scope?.kind === "class";
      facts.declare(inClass ? "method" : "function", name, lineOf(definition), isExported);
      for (const parameter of parameterNames(field(definition, "parameters")))
        facts.declare("parameter", parameter, lineOf(definition), false);
      if (/^(?:create|make|build|new)_/.test(name)) facts.hit("factory-function", symbol, startLine, endLine);
      if (/^register(?:_|$)/.test(name)) facts.hit("registry", symbol, startLine, endLine);
      if (decorators.some((d) => /(?:^|\.)register$/.test(d))) facts.hit("registry", symbol, startLine, endLine, 2);
      if (topLevel) facts.chunk(symbol, "function", startLine, endLine, isExported, doc);
      visitBlock(body, { kind: "def", symbol }, false);
      return;
    }
    facts.declare("class", name, lineOf(definition), isExported);
    const bases = namedChildren(field(definition, "superclasses")).map((b) => b.text.replace(/\s+/g, ""));
    if (bases.some((b) => /(?:Error|Exception)$/.test(b))) facts.hit("custom-error-class", symbol, startLine, endLine, 2);
    if (bases.some((b) => /^(?:abc\.)?ABC$/.test(b) || /^metaclass=(?:abc\.)?ABCMeta$/.test(b)))
      facts.hit("abstract-base-class", symbol, startLine, endLine, 2);
    if (bases.some((b) => /(?:^|\.)(?:BaseModel|Schema)$/.test(b))) facts.hit("schema-validation", symbol, startLine, endLine, 1);
    if (decorators.some((d) => /(?:^|\.)dataclass$/.test(d)) || bases.some((b) => /(?:^|\.)(?:NamedTuple|TypedDict)$/.test(b)))
      facts.hit("data-class", symbol, startLine, endLine, 2);
    const methods = namedChildren(body)
      .map((member) => ({ outer: member, inner: member.type === "decorated_definition" ? field(member, "definition") : member }))
      .filter((m): m is { outer: Node; inner: Node } => m.inner?.type === "function_definition");
    const methodNames = methods.map((m) => field(m.inner, "name")?.text ?? "");
    if (methods.some((m) => returnsSelf(field(m.inner, "body")))) facts.hit("fluent-builder", symbol, startLine, endLine);
    if (methodNames.some((m) => DISPOSE_METHODS.has(m))) facts.hit("disposable-resource", symbol, startLine, endLine);
    if (topLevel) {
      if (endLine - startLine + 1 > LONG_CONTAINER_LINES)
        for (const method of methods)
          facts.chunk(
            `${symbol}.${field(method.inner, "name")?.text ?? ""}`,
            "method",
            lineOf(method.outer),
            endLineOf(method.outer),
            isExported,
            docstringOf(field(method.inner, "body")),
          );
      else facts.chunk(symbol, "class", startLine, endLine, isExported, doc);
    }
    visitBlock(body, { kind: "class", symbol }, false);
  };

  /** `name = …`, and in a class body `name: type` without a value (a dataclass field): a property. */
  const assignmentFacts = (expression: Node, scope: Scope | undefined, topLevel: boolean) => {
    if (expression.type !== "assignment") return;
    const left = field(expression, "left");
    if (left?.type !== "identifier") return;
    const name = left.text;
    const line = lineOf(expression);
    const value = field(expression, "right");
    let kind: IdentifierKind;
    if (scope?.kind === "class") kind = UPPER.test(name) ? "constant" : "property";
    else if (scope?.kind === "def") kind = "variable";
    else if (topLevel) kind = UPPER.test(name) ? "constant" : "variable";
    else return;
    facts.declare(kind, name, line, topLevel && exported.has(name));
    if (topLevel && /regist|handlers|plugins/i.test(name) && (value?.type === "dictionary" || /^dict\(/.test(value?.text ?? "")))
      facts.hit("registry", name, line, endLineOf(expression));
  };

  const tryFacts = (statement: Node, scope: Scope | undefined) => {
    facts.errors.tryBlocks += 1;
    const styles: CatchStyle[] = [];
    for (const clause of namedChildren(statement)) {
      if (clause.type !== "except_clause" && clause.type !== "except_group_clause") continue;
      const style = catchStyleOf(namedChildren(clause).find((c) => c.type === "block") ?? null, ["raise_statement"]);
      styles.push(style);
      facts.errors.catches[style] += 1;
    }
    if (styles.length === 0) return;
    const best = (["rethrow", "fallback", "handle", "swallow"] as const).find((s) => styles.includes(s)) ?? "swallow";
    facts.hit("error-handling", scope?.symbol ?? "(module)", lineOf(statement), endLineOf(statement), CATCH_QUALITY[best]);
  };

  visitBlock(root, undefined, true);
  return facts.sorted();
}

/** Parameter names without `self`/`cls` and without `*`/`**`. */
function parameterNames(parameters: Node | null): string[] {
  const names: string[] = [];
  for (const parameter of namedChildren(parameters)) {
    let node: Node | null | undefined = parameter;
    if (parameter.type === "default_parameter" || parameter.type === "typed_default_parameter") node = field(parameter, "name");
    else if (parameter.type === "typed_parameter") node = namedChildren(parameter)[0];
    if (node?.type === "list_splat_pattern" || node?.type === "dictionary_splat_pattern") node = namedChildren(node)[0];
    if (node?.type !== "identifier") continue;
    if (node.text !== "self" && node.text !== "cls") names.push(node.text);
  }
  return names;
}

/** The docstring: a triple-quoted string as a body's first statement. */
function docstringOf(body: Node | null): string | undefined {
  const first = namedChildren(body)[0];
  const string = first?.type === "expression_statement" ? namedChildren(first)[0] : undefined;
  if (string?.type !== "string" || !/^[rbuRBU]?("""|''')/.test(string.text)) return undefined;
  const doc = dedent(stringValue(string))
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return doc.length > 0 ? doc : undefined;
}

function returnsSelf(body: Node | null): boolean {
  if (!body) return false;
  return descendants(body, "return_statement").some((r) => namedChildren(r)[0]?.text === "self" && namedChildren(r).length === 1);
}

function dedent(text: string): string {
  const lines = text.split("\n");
  const indents = lines
    .slice(1)
    .filter((l) => l.trim() !== "")
    .map(indentationOf);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return [lines[0] ?? "", ...lines.slice(1).map((l) => l.slice(cut))].join("\n");
}
