/** What a TS/JS module exports, with the line of each export (ES modules and CommonJS). */
import type ts from "typescript";
import { bindingNames, hasModifier, type ParsedSource } from "./source-file.js";

export type ExportKind =
  | "function"
  | "class"
  | "variable"
  | "interface"
  | "type"
  | "enum"
  | "namespace"
  | "alias"
  | "default"
  | "local"
  | "re-export"
  | "re-export-all"
  | "commonjs";

export interface ExportInfo {
  /** The exported name (`default`, `*` for `export * from`). */
  name: string;
  kind: ExportKind;
  line: number;
  typeOnly: boolean;
  /** The module a re-export comes from. */
  from?: string;
  /** The local name behind a default export, when it has one. */
  local?: string;
}

export function collectExports(parsed: ParsedSource): ExportInfo[] {
  const { ts, sourceFile } = parsed;
  const out: ExportInfo[] = [];
  const push = (info: ExportInfo) => out.push(info);
  for (const statement of sourceFile.statements) {
    const line = parsed.line(statement);
    if (ts.isExportDeclaration(statement)) {
      const from = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      const clause = statement.exportClause;
      if (!clause) push({ name: "*", kind: "re-export-all", line, typeOnly: statement.isTypeOnly, ...(from ? { from } : {}) });
      else if (ts.isNamespaceExport(clause))
        push({ name: clause.name.text, kind: "re-export", line, typeOnly: statement.isTypeOnly, ...(from ? { from } : {}) });
      else {
        for (const element of clause.elements) {
          push({
            name: element.name.text,
            kind: from ? "re-export" : "local",
            line: parsed.line(element),
            typeOnly: statement.isTypeOnly || element.isTypeOnly,
            ...(from ? { from } : {}),
          });
        }
      }
      continue;
    }
    if (ts.isExportAssignment(statement)) {
      const local = ts.isIdentifier(statement.expression) ? statement.expression.text : undefined;
      push({ name: statement.isExportEquals ? "export=" : "default", kind: "default", line, typeOnly: false, ...(local ? { local } : {}) });
      continue;
    }
    if (ts.isExpressionStatement(statement)) {
      out.push(...commonJsExports(parsed, statement.expression, line));
      continue;
    }
    if (!hasModifier(parsed, statement, ts.SyntaxKind.ExportKeyword)) continue;
    const isDefault = hasModifier(parsed, statement, ts.SyntaxKind.DefaultKeyword);
    const declared = declarationExport(parsed, statement);
    if (!declared) continue;
    for (const { name, kind, typeOnly } of declared) {
      if (isDefault) push({ name: "default", kind: "default", line, typeOnly, ...(name ? { local: name } : {}) });
      else if (name) push({ name, kind, line, typeOnly });
    }
  }
  return out;
}

function declarationExport(
  parsed: ParsedSource,
  statement: ts.Statement,
): { name: string | undefined; kind: ExportKind; typeOnly: boolean }[] | undefined {
  const { ts } = parsed;
  if (ts.isFunctionDeclaration(statement)) return [{ name: statement.name?.text, kind: "function", typeOnly: false }];
  if (ts.isClassDeclaration(statement)) return [{ name: statement.name?.text, kind: "class", typeOnly: false }];
  if (ts.isInterfaceDeclaration(statement)) return [{ name: statement.name.text, kind: "interface", typeOnly: true }];
  if (ts.isTypeAliasDeclaration(statement)) return [{ name: statement.name.text, kind: "type", typeOnly: true }];
  if (ts.isEnumDeclaration(statement)) return [{ name: statement.name.text, kind: "enum", typeOnly: false }];
  if (ts.isModuleDeclaration(statement)) return [{ name: statement.name.text, kind: "namespace", typeOnly: false }];
  if (ts.isImportEqualsDeclaration(statement)) return [{ name: statement.name.text, kind: "alias", typeOnly: statement.isTypeOnly }];
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) =>
      bindingNames(parsed, d.name).map((name) => ({ name, kind: "variable" as const, typeOnly: false })),
    );
  }
  return undefined;
}

/** `module.exports = {a, b}`, `module.exports = x`, `module.exports.a = …`, `exports.a = …`. */
function commonJsExports(parsed: ParsedSource, expression: ts.Expression, line: number): ExportInfo[] {
  const { ts } = parsed;
  if (!ts.isBinaryExpression(expression) || expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return [];
  const target = expression.left;
  const isModuleExports = (node: ts.Node) =>
    ts.isPropertyAccessExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === "module" &&
    node.name.text === "exports";
  if (isModuleExports(target)) {
    const value = expression.right;
    if (ts.isObjectLiteralExpression(value)) {
      return value.properties
        .map((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined))
        .filter((name): name is string => name !== undefined)
        .map((name) => ({ name, kind: "commonjs" as const, line, typeOnly: false }));
    }
    return [{ name: "module.exports", kind: "commonjs", line, typeOnly: false }];
  }
  if (ts.isPropertyAccessExpression(target)) {
    const owner = target.expression;
    if (isModuleExports(owner) || (ts.isIdentifier(owner) && owner.text === "exports")) {
      return [{ name: target.name.text, kind: "commonjs", line, typeOnly: false }];
    }
  }
  return [];
}

/** `name` or `default (local)`: how an export is listed in reasons. */
export function exportLabel(info: ExportInfo): string {
  return info.local && info.name === "default"
    ? `default (${info.local})`
    : info.from && info.name === "*"
      ? `* from ${info.from}`
      : info.name;
}
