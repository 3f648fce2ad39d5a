/** What a TS/JS module imports: ES imports, `import x = require()`, `require()` and `import()`. */
import type ts from "typescript";
import { bindingNames, type ParsedSource } from "./source-file.js";

export interface ImportedName {
  /** The name in the source module (`default`, `*` for a namespace). */
  imported: string;
  /** The local binding. */
  local: string;
}

export interface ImportInfo {
  from: string;
  /** As written: `X` (default), `* as ns`, `a`, `a as b`. */
  items: string[];
  names: ImportedName[];
  line: number;
  typeOnly: boolean;
  kind: "import" | "import-equals" | "require" | "dynamic";
}

export function collectImports(parsed: ParsedSource): ImportInfo[] {
  const { ts, sourceFile } = parsed;
  const out: ImportInfo[] = [];
  for (const statement of sourceFile.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const names: ImportedName[] = [];
      const items: string[] = [];
      const clause = statement.importClause;
      if (clause?.name) {
        names.push({ imported: "default", local: clause.name.text });
        items.push(clause.name.text);
      }
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        names.push({ imported: "*", local: bindings.name.text });
        items.push(`* as ${bindings.name.text}`);
      } else if (bindings) {
        for (const element of bindings.elements) {
          const imported = element.propertyName?.text ?? element.name.text;
          names.push({ imported, local: element.name.text });
          items.push(imported === element.name.text ? imported : `${imported} as ${element.name.text}`);
        }
      }
      out.push({
        from: statement.moduleSpecifier.text,
        items,
        names,
        line: parsed.line(statement),
        typeOnly: clause?.isTypeOnly ?? false,
        kind: "import",
      });
    } else if (
      ts.isImportEqualsDeclaration(statement) &&
      ts.isExternalModuleReference(statement.moduleReference) &&
      ts.isStringLiteral(statement.moduleReference.expression)
    ) {
      const local = statement.name.text;
      out.push({
        from: statement.moduleReference.expression.text,
        items: [local],
        names: [{ imported: "*", local }],
        line: parsed.line(statement),
        typeOnly: statement.isTypeOnly,
        kind: "import-equals",
      });
    }
  }
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const argument = node.arguments[0];
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
      const isDynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      if ((isRequire || isDynamic) && argument && ts.isStringLiteralLike(argument)) {
        const names = isRequire ? requireBindings(parsed, node) : [];
        out.push({
          from: argument.text,
          items: names.map((n) => (n.imported === n.local || n.imported === "*" ? n.local : `${n.imported} as ${n.local}`)),
          names,
          line: parsed.line(node),
          typeOnly: false,
          kind: isRequire ? "require" : "dynamic",
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return out.sort((a, b) => a.line - b.line);
}

/** `const x = require("m")` → x; `const {a, b: c} = require("m")` → a, c. */
function requireBindings(parsed: ParsedSource, call: ts.CallExpression): ImportedName[] {
  const { ts } = parsed;
  const parent = call.parent;
  if (!parent || !ts.isVariableDeclaration(parent) || parent.initializer !== call) return [];
  if (ts.isIdentifier(parent.name)) return [{ imported: "*", local: parent.name.text }];
  if (ts.isObjectBindingPattern(parent.name)) {
    return parent.name.elements.flatMap((element) => {
      const locals = bindingNames(parsed, element.name);
      const imported = element.propertyName && ts.isIdentifier(element.propertyName) ? element.propertyName.text : locals[0];
      return locals.map((local) => ({ imported: imported ?? local, local }));
    });
  }
  return [];
}

/** Module specifiers a file depends on: its imports and the sources of its re-exports. */
export function moduleReferences(parsed: ParsedSource, imports: readonly ImportInfo[]): { from: string; line: number }[] {
  const { ts } = parsed;
  const refs = imports.map((i) => ({ from: i.from, line: i.line }));
  for (const statement of parsed.sourceFile.statements) {
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      refs.push({ from: statement.moduleSpecifier.text, line: parsed.line(statement) });
    }
  }
  return refs.sort((a, b) => a.line - b.line);
}
