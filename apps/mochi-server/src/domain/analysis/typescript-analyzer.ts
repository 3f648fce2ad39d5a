import ts from "typescript";
import type { Language } from "../files/languages.js";
import {
  cleanDocComment,
  emptyErrorFacts,
  type CatchStyle,
  type CodeChunk,
  type Declaration,
  type FileFacts,
  type IdentifierKind,
  type ImportFact,
  type PatternHit,
  type PatternName,
} from "./source-facts.js";
import { frameworkFromImports, isTestPath } from "./test-files.js";

/** A class longer than this gives its methods as chunks instead of itself. */
const LONG_CLASS_LINES = 80;
const FACTORY_NAME = /^(?:create|make|build)[A-Z0-9_]/;
const DEFINE_CALL = /^define[A-Z]/;
const REGISTER_NAME = /^register[A-Z_]?/;
const ERROR_CLASS = /(?:Error|Exception)$/;
const OPTIONS_TYPE = /(?:Options|Config|Settings|Params|Opts)$/;
/** A declared return type that is a Result union (possibly in a Promise). */
const RESULT_RETURN = /^(?:Promise<)?(?:Result|Either|Outcome)</;
const SCHEMA_ROOTS = new Set(["z", "zod", "Joi", "yup"]);
const DISPOSE_METHODS = new Set(["dispose", "close", "destroy", "[Symbol.dispose]", "[Symbol.asyncDispose]"]);

/**
 * Facts of one TypeScript or JavaScript file from the TypeScript compiler's syntax tree
 * (`ts.createSourceFile`, no type checker, so each file is read on its own and the result never
 * depends on other files): declarations with their kinds, chunks with doc comments, imports,
 * error handling, and pattern occurrences.
 */
export function analyzeTypeScript(path: string, text: string, language: Language): FileFacts {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKindFor(path));
  return new TypeScriptFileAnalysis(path, language, source).run();
}

function scriptKindFor(path: string): ts.ScriptKind {
  if (/\.tsx$/.test(path)) return ts.ScriptKind.TSX;
  if (/\.jsx$/.test(path)) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

class TypeScriptFileAnalysis {
  private readonly declarations: Declaration[] = [];
  private readonly chunks: CodeChunk[] = [];
  private readonly imports: ImportFact[] = [];
  private readonly errors = emptyErrorFacts();
  private readonly patterns: PatternHit[] = [];
  /** Names of the enclosing functions/classes, innermost last. */
  private readonly scope: string[] = [];

  constructor(
    private readonly path: string,
    private readonly language: Language,
    private readonly source: ts.SourceFile,
  ) {}

  run(): FileFacts {
    this.visit(this.source);
    const facts: FileFacts = {
      path: this.path,
      language: this.language,
      lines: this.source.getLineAndCharacterOfPosition(this.source.getEnd()).line + 1,
      declarations: this.declarations,
      chunks: this.chunks,
      imports: this.imports,
      errors: this.errors,
      patterns: this.patterns,
    };
    if (isTestPath(this.path)) {
      const framework =
        frameworkFromImports(this.imports.map((i) => i.specifier)) ??
        (/\b(?:describe|it|test)\s*\(/.test(this.source.text) ? "describe/it globals" : undefined);
      if (framework) facts.testFramework = framework;
    }
    return facts;
  }

  private line(position: number): number {
    return this.source.getLineAndCharacterOfPosition(position).line + 1;
  }

  private startLine(node: ts.Node): number {
    return this.line(node.getStart(this.source));
  }

  private endLine(node: ts.Node): number {
    return this.line(node.getEnd());
  }

  private get enclosing(): string {
    return this.scope.at(-1) ?? "(module)";
  }

  private declare(kind: IdentifierKind, name: string, node: ts.Node, exported = false): void {
    this.declarations.push({ kind, name, line: this.startLine(node), exported });
  }

  private hit(pattern: PatternName, symbol: string, node: ts.Node, quality = 1): void {
    this.patterns.push({ pattern, symbol, startLine: this.startLine(node), endLine: this.endLine(node), quality });
  }

  private chunk(symbol: string, kind: IdentifierKind, node: ts.Node, exported: boolean, docNode: ts.Node = node): void {
    const doc = this.docOf(docNode);
    this.chunks.push({
      symbol,
      kind,
      startLine: this.startLine(node),
      endLine: this.endLine(node),
      exported,
      ...(doc ? { doc } : {}),
    });
  }

  private docOf(node: ts.Node): string | undefined {
    const text = this.source.text;
    const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
    const jsdoc = ranges.filter((r) => r.kind === ts.SyntaxKind.MultiLineCommentTrivia && text.startsWith("/**", r.pos)).at(-1);
    if (!jsdoc) return undefined;
    const doc = cleanDocComment(text.slice(jsdoc.pos, jsdoc.end));
    return doc.length > 0 ? doc : undefined;
  }

  private visit(node: ts.Node): void {
    if (ts.isImportDeclaration(node)) this.importDeclaration(node);
    else if (ts.isExportDeclaration(node)) this.exportDeclaration(node);
    else if (ts.isImportEqualsDeclaration(node)) this.importEquals(node);
    else if (ts.isCallExpression(node)) this.call(node);
    else if (ts.isThrowStatement(node)) this.throwStatement(node);
    else if (ts.isTryStatement(node)) this.tryStatement(node);
    else if (ts.isObjectLiteralExpression(node)) this.objectLiteral(node);

    if (ts.isFunctionDeclaration(node)) return this.functionDeclaration(node);
    if (ts.isMethodDeclaration(node) && ts.isObjectLiteralExpression(node.parent)) return this.objectMethod(node);
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) return this.classLike(node);
    if (ts.isInterfaceDeclaration(node)) this.interfaceDeclaration(node);
    else if (ts.isTypeAliasDeclaration(node)) this.typeAlias(node);
    else if (ts.isEnumDeclaration(node)) this.enumDeclaration(node);
    else if (ts.isVariableStatement(node)) this.variableStatement(node);
    else if (ts.isVariableDeclaration(node)) return this.variableDeclaration(node);
    ts.forEachChild(node, (child) => this.visit(child));
  }

  private isTopLevel(node: ts.Node): boolean {
    return node.parent !== undefined && ts.isSourceFile(node.parent);
  }

  private isExported(node: ts.Node): boolean {
    const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
    return modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
  }

  private functionDeclaration(node: ts.FunctionDeclaration): void {
    const name = node.name?.text ?? "default";
    const exported = this.isExported(node);
    if (node.name) this.declare("function", name, node.name, exported);
    if (this.isTopLevel(node)) this.chunk(name, "function", node, exported);
    this.functionPatterns(name, node, node);
    this.within(name, node);
  }

  /** A method of an object literal (`return { findUser() {…} }`): named after the enclosing function. */
  private objectMethod(node: ts.MethodDeclaration): void {
    const name = memberName(node.name, this.source);
    if (ts.isIdentifier(node.name)) this.declare("method", node.name.text, node.name);
    const symbol = this.scope.length > 0 ? `${this.enclosing}.${name}` : name;
    this.functionPatterns(symbol, node, node, false);
    this.within(symbol, node);
  }

  /** Patterns a function shows by its name and parameters; `snippet` is what an example shows. */
  private functionPatterns(name: string, fn: ts.SignatureDeclaration, snippet: ts.Node, canBeFactory = true): void {
    const short = name.slice(name.lastIndexOf(".") + 1);
    if (canBeFactory && FACTORY_NAME.test(short)) this.hit("factory-function", name, snippet, returnsObject(fn) ? 2 : 1);
    if (REGISTER_NAME.test(short)) this.hit("registry", name, snippet, 1);
    const last = fn.parameters.at(-1);
    if (last && isOptionsParameter(last)) this.hit("options-object", name, snippet, 1);
    if (fn.parameters.some((p) => p.type !== undefined && typeText(p.type).includes("AbortSignal")))
      this.hit("abort-signal", name, snippet, 2);
    if (fn.type && RESULT_RETURN.test(typeText(fn.type))) this.hit("result-type", name, snippet, 1);
    for (const parameter of fn.parameters) this.parameter(parameter);
  }

  private parameter(parameter: ts.ParameterDeclaration): void {
    for (const name of bindingNames(parameter.name)) {
      if (name.text === "this") continue;
      const isProperty =
        ts.canHaveModifiers(parameter) && (ts.getModifiers(parameter)?.length ?? 0) > 0 && ts.isConstructorDeclaration(parameter.parent);
      this.declare(isProperty ? "property" : "parameter", name.text, name);
    }
  }

  /** Visits a body with `name` as the enclosing scope. */
  private within(name: string, node: ts.Node): void {
    this.scope.push(name);
    ts.forEachChild(node, (child) => {
      if (ts.isParameter(child)) ts.forEachChild(child, (c) => this.visit(c));
      else this.visit(child);
    });
    this.scope.pop();
  }

  private classLike(node: ts.ClassDeclaration | ts.ClassExpression): void {
    const name = node.name?.text ?? (ts.isClassExpression(node) ? "(class)" : "default");
    const exported = this.isExported(node);
    if (node.name) this.declare("class", name, node.name, exported);
    const base = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression.getText(this.source);
    if (base !== undefined && (base === "Error" || ERROR_CLASS.test(base)))
      this.hit("custom-error-class", name, node, node.members.length > 0 ? 2 : 1);
    if (ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.AbstractKeyword)) this.hit("abstract-base-class", name, node, 2);
    const memberNames = node.members.map((m) => (m.name ? memberName(m.name, this.source) : ""));
    if (memberNames.some((m) => DISPOSE_METHODS.has(m))) this.hit("disposable-resource", name, node, 1);
    const fluent = node.members.filter((m) => ts.isMethodDeclaration(m) && m.body !== undefined && returnsThis(m.body)).length;
    if (fluent >= 2) this.hit("fluent-builder", name, node, fluent);

    const long = this.endLine(node) - this.startLine(node) + 1 > LONG_CLASS_LINES;
    const chunked = this.isTopLevel(node) && ts.isClassDeclaration(node);
    if (chunked && !long) this.chunk(name, "class", node, exported);
    this.scope.push(name);
    for (const member of node.members) {
      const memberText = member.name ? memberName(member.name, this.source) : "";
      if (ts.isMethodDeclaration(member) || ts.isGetAccessor(member) || ts.isSetAccessor(member)) {
        if (member.name && (ts.isIdentifier(member.name) || ts.isPrivateIdentifier(member.name)))
          this.declare("method", member.name.text, member.name);
        const symbol = `${name}.${memberText}`;
        if (chunked && long && member.body) this.chunk(symbol, "method", member, exported);
        const isStatic = ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword) ?? false;
        this.functionPatterns(symbol, member, member, isStatic);
        this.scope.push(symbol);
        if (member.body) this.visit(member.body);
        this.scope.pop();
      } else if (ts.isConstructorDeclaration(member)) {
        const last = member.parameters.at(-1);
        if (last && isOptionsParameter(last)) this.hit("options-object", `${name}.constructor`, member, 1);
        for (const p of member.parameters) this.parameter(p);
        this.scope.push(`${name}.constructor`);
        if (member.body) this.visit(member.body);
        this.scope.pop();
      } else if (ts.isPropertyDeclaration(member)) {
        if (member.name && (ts.isIdentifier(member.name) || ts.isPrivateIdentifier(member.name)))
          this.declare("property", member.name.text, member.name);
        if (member.initializer) this.visit(member.initializer);
      } else {
        this.visit(member);
      }
    }
    this.scope.pop();
  }

  private interfaceDeclaration(node: ts.InterfaceDeclaration): void {
    const exported = this.isExported(node);
    this.declare("interface", node.name.text, node.name, exported);
    if (this.isTopLevel(node)) this.chunk(node.name.text, "interface", node, exported);
  }

  private typeAlias(node: ts.TypeAliasDeclaration): void {
    const name = node.name.text;
    const exported = this.isExported(node);
    this.declare("type", name, node.name, exported);
    if (this.isTopLevel(node)) this.chunk(name, "type", node, exported);
    if (!ts.isUnionTypeNode(node.type)) return;
    const objects = node.type.types.filter(ts.isTypeLiteralNode);
    const discriminants = commonLiteralProperties(objects);
    if ((objects.length >= 2 && (discriminants.has("ok") || discriminants.has("success"))) || /(?:Result|Either|Outcome)$/.test(name)) {
      this.hit("result-type", name, node, objects.length >= 2 ? 2 : 1);
    } else if (objects.length >= 2 && discriminants.size > 0) {
      this.hit("discriminated-union", name, node, objects.length);
    }
  }

  private enumDeclaration(node: ts.EnumDeclaration): void {
    const exported = this.isExported(node);
    this.declare("enum", node.name.text, node.name, exported);
    if (this.isTopLevel(node)) this.chunk(node.name.text, "enum", node, exported);
  }

  private variableStatement(node: ts.VariableStatement): void {
    if (!this.isTopLevel(node)) return;
    const exported = this.isExported(node);
    for (const declaration of node.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue;
      const name = declaration.name.text;
      const init = declaration.initializer;
      const isFunction = init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
      const spansLines = this.endLine(node) > this.startLine(node);
      if (isFunction || (spansLines && (exported || isDefinitionCall(init)))) {
        this.chunk(name, isFunction ? "function" : "constant", node, exported);
      }
      if (!init) continue;
      if (isDefinitionCall(init)) this.hit("definition-object", name, node, 2);
      if (ts.isNewExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === "Map")
        this.hit("registry", name, node, 1);
      if (ts.isArrayLiteralExpression(init) && init.elements.length >= 3 && init.elements.every(ts.isIdentifier))
        this.hit("registry", name, node, 2);
      if (schemaRoot(init) !== undefined) this.hit("schema-validation", name, node, 1);
    }
  }

  private variableDeclaration(node: ts.VariableDeclaration): void {
    const list = node.parent;
    const statement = list.parent;
    const topLevel = ts.isVariableStatement(statement) && this.isTopLevel(statement);
    const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
    const init = node.initializer;
    const isFunction = init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
    const exported = ts.isVariableStatement(statement) && this.isExported(statement);
    for (const name of bindingNames(node.name)) {
      const kind: IdentifierKind = isFunction ? "function" : topLevel && isConst ? "constant" : "variable";
      this.declare(kind, name.text, name, exported);
    }
    if (init && isFunction && ts.isIdentifier(node.name)) {
      this.functionPatterns(node.name.text, init, topLevel ? statement : node);
      this.within(node.name.text, init);
    } else if (init) {
      this.visit(init);
    }
  }

  private importDeclaration(node: ts.ImportDeclaration): void {
    if (!ts.isStringLiteral(node.moduleSpecifier)) return;
    const specifier = node.moduleSpecifier.text;
    const clause = node.importClause;
    if (!clause) {
      this.imports.push({ specifier, style: "esm-side-effect", typeOnly: false });
      return;
    }
    const bindings = clause.namedBindings;
    const elements = bindings && ts.isNamedImports(bindings) ? bindings.elements : undefined;
    const typeOnly =
      clause.isTypeOnly ||
      (elements !== undefined && elements.length > 0 && clause.name === undefined && elements.every((e) => e.isTypeOnly));
    const style = bindings && ts.isNamespaceImport(bindings) ? "esm-namespace" : elements ? "esm-named" : "esm-default";
    this.imports.push({ specifier, style, typeOnly });
  }

  private exportDeclaration(node: ts.ExportDeclaration): void {
    if (!node.moduleSpecifier || !ts.isStringLiteral(node.moduleSpecifier)) return;
    this.imports.push({ specifier: node.moduleSpecifier.text, style: "esm-reexport", typeOnly: node.isTypeOnly });
  }

  private importEquals(node: ts.ImportEqualsDeclaration): void {
    const reference = node.moduleReference;
    if (ts.isExternalModuleReference(reference) && ts.isStringLiteral(reference.expression)) {
      this.imports.push({ specifier: reference.expression.text, style: "commonjs-require", typeOnly: node.isTypeOnly });
    }
  }

  private call(node: ts.CallExpression): void {
    const callee = node.expression;
    const first = node.arguments[0];
    if (ts.isIdentifier(callee) && callee.text === "require" && first && ts.isStringLiteral(first)) {
      this.imports.push({ specifier: first.text, style: "commonjs-require", typeOnly: false });
    } else if (callee.kind === ts.SyntaxKind.ImportKeyword && first && ts.isStringLiteral(first)) {
      this.imports.push({ specifier: first.text, style: "dynamic-import", typeOnly: false });
    } else if (ts.isPropertyAccessExpression(callee) && callee.name.text === "catch") {
      this.errors.promiseCatches += 1;
    }
  }

  private throwStatement(node: ts.ThrowStatement): void {
    const thrown = node.expression;
    if (thrown && ts.isNewExpression(thrown)) this.errors.thrown.push(thrown.expression.getText(this.source));
    else if (thrown && ts.isCallExpression(thrown)) this.errors.thrown.push(`${thrown.expression.getText(this.source)}()`);
    else this.errors.thrown.push("(existing error value)");
  }

  private tryStatement(node: ts.TryStatement): void {
    this.errors.tryBlocks += 1;
    const clause = node.catchClause;
    if (!clause) return;
    const style = catchStyle(clause.block);
    this.errors.catches[style] += 1;
    const quality: Record<CatchStyle, number> = { rethrow: 3, fallback: 2, handle: 1, swallow: 0 };
    this.hit("error-handling", this.enclosing, node, quality[style]);
  }

  private objectLiteral(node: ts.ObjectLiteralExpression): void {
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
      const key = property.name.text;
      if ((key === "ok" || key === "success") && property.initializer.kind === ts.SyntaxKind.FalseKeyword) this.errors.errorValues += 1;
    }
  }
}

function bindingNames(name: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  const out: ts.Identifier[] = [];
  for (const element of name.elements) {
    if (ts.isBindingElement(element)) out.push(...bindingNames(element.name));
  }
  return out;
}

function memberName(name: ts.PropertyName, source: ts.SourceFile): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText(source);
}

function typeText(type: ts.TypeNode): string {
  return type.getText();
}

function isOptionsParameter(parameter: ts.ParameterDeclaration): boolean {
  const type = parameter.type;
  if (type && ts.isTypeReferenceNode(type)) return OPTIONS_TYPE.test(type.typeName.getText());
  if (type && ts.isTypeLiteralNode(type)) return type.members.length >= 2;
  return ts.isIdentifier(parameter.name) && /^(?:options|opts|config)$/.test(parameter.name.text) && type !== undefined;
}

function returnsObject(fn: ts.SignatureDeclaration): boolean {
  const body = (fn as { body?: ts.Node }).body;
  if (!body) return false;
  if (ts.isParenthesizedExpression(body) || ts.isObjectLiteralExpression(body) || ts.isNewExpression(body)) return true;
  let found = false;
  const look = (node: ts.Node): void => {
    if (found || ts.isFunctionLike(node)) return;
    if (
      ts.isReturnStatement(node) &&
      node.expression &&
      (ts.isObjectLiteralExpression(node.expression) || ts.isNewExpression(node.expression))
    )
      found = true;
    else ts.forEachChild(node, look);
  };
  ts.forEachChild(body, look);
  return found;
}

function returnsThis(body: ts.Block): boolean {
  let found = false;
  const look = (node: ts.Node): void => {
    if (found || ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node) && node.expression?.kind === ts.SyntaxKind.ThisKeyword) found = true;
    else ts.forEachChild(node, look);
  };
  ts.forEachChild(body, look);
  return found;
}

function isDefinitionCall(init: ts.Expression | undefined): boolean {
  if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression)) return false;
  const first = init.arguments[0];
  return DEFINE_CALL.test(init.expression.text) && first !== undefined && ts.isObjectLiteralExpression(first);
}

/** `z` for `z.object({...}).strict()`, when the expression is a call chain rooted at a schema library. */
function schemaRoot(init: ts.Expression): string | undefined {
  let node: ts.Expression = init;
  let calls = 0;
  for (;;) {
    if (ts.isCallExpression(node)) {
      calls += 1;
      node = node.expression;
    } else if (ts.isPropertyAccessExpression(node)) node = node.expression;
    else break;
  }
  return calls > 0 && ts.isIdentifier(node) && SCHEMA_ROOTS.has(node.text) ? node.text : undefined;
}

/** Property names that hold a literal type in every object member of a union. */
function commonLiteralProperties(members: readonly ts.TypeLiteralNode[]): Set<string> {
  let common: Set<string> | undefined;
  for (const member of members) {
    const names = new Set<string>();
    for (const element of member.members) {
      if (ts.isPropertySignature(element) && element.type && ts.isLiteralTypeNode(element.type) && ts.isIdentifier(element.name)) {
        names.add(element.name.text);
      }
    }
    common = common === undefined ? names : new Set([...common].filter((n) => names.has(n)));
  }
  return common ?? new Set();
}

/** What a catch block does: throws (rethrow/wrap), returns a value (fallback), nothing (swallow), or something else. */
function catchStyle(block: ts.Block): CatchStyle {
  if (block.statements.length === 0) return "swallow";
  let throws = false;
  let returns = false;
  const look = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isThrowStatement(node)) throws = true;
    if (ts.isReturnStatement(node)) returns = true;
    ts.forEachChild(node, look);
  };
  ts.forEachChild(block, look);
  return throws ? "rethrow" : returns ? "fallback" : "handle";
}
