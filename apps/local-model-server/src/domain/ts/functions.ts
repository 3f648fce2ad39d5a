/** Functions of a TS/JS module: declarations, functions bound to variables, class members. */
import type ts from "typescript";
import { hasModifier, type ParsedSource } from "./source-file.js";

export interface FunctionInfo {
  /** `name`, `Class.method`, `default` for an anonymous default export. */
  name: string;
  line: number;
  /** Parameter names as written (`a`, `...rest`, `{ a, b }`). */
  params: string[];
  kind: "function" | "arrow" | "method" | "constructor" | "getter" | "setter";
  async: boolean;
  exported: boolean;
  /** Parameter type annotations (null where none). */
  paramTypes: (string | null)[];
  returns: string | null;
}

type FunctionLike =
  | ts.FunctionDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.AccessorDeclaration;

function describe(
  parsed: ParsedSource,
  node: FunctionLike,
  name: string,
  kind: FunctionInfo["kind"],
  exported: boolean,
  lineNode: ts.Node,
): FunctionInfo {
  const { ts } = parsed;
  const params = node.parameters.map((p) => `${p.dotDotDotToken ? "..." : ""}${parsed.text(p.name)}`);
  return {
    name,
    line: parsed.line(lineNode),
    params,
    kind,
    async: hasModifier(parsed, node, ts.SyntaxKind.AsyncKeyword),
    exported,
    paramTypes: node.parameters.map((p) => (p.type ? parsed.text(p.type) : null)),
    returns: node.type ? parsed.text(node.type) : null,
  };
}

/** Unwraps `(x)`, `x as T`, `x satisfies T`, `<T>x`. */
function unwrap(parsed: ParsedSource, expression: ts.Expression): ts.Expression {
  const { ts } = parsed;
  let current = expression;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isTypeAssertionExpression(current)
  ) {
    current = current.expression;
  }
  return current;
}

export function collectFunctions(parsed: ParsedSource): FunctionInfo[] {
  const { ts, sourceFile } = parsed;
  const out: FunctionInfo[] = [];
  for (const statement of sourceFile.statements) {
    const exported = hasModifier(parsed, statement, ts.SyntaxKind.ExportKeyword);
    const isDefault = hasModifier(parsed, statement, ts.SyntaxKind.DefaultKeyword);
    if (ts.isFunctionDeclaration(statement) && statement.body) {
      out.push(describe(parsed, statement, isDefault ? "default" : (statement.name?.text ?? "default"), "function", exported, statement));
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
        const value = unwrap(parsed, declaration.initializer);
        if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) {
          out.push(describe(parsed, value, declaration.name.text, ts.isArrowFunction(value) ? "arrow" : "function", exported, declaration));
        }
      }
    } else if (ts.isClassDeclaration(statement)) {
      const className = statement.name?.text ?? "default";
      for (const member of statement.members) {
        const memberName =
          member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) || ts.isPrivateIdentifier(member.name))
            ? member.name.text
            : undefined;
        if (ts.isConstructorDeclaration(member) && member.body)
          out.push(describe(parsed, member, `${className}.constructor`, "constructor", exported, member));
        else if (ts.isMethodDeclaration(member) && member.body && memberName)
          out.push(describe(parsed, member, `${className}.${memberName}`, "method", exported, member));
        else if (ts.isGetAccessorDeclaration(member) && memberName)
          out.push(describe(parsed, member, `${className}.${memberName}`, "getter", exported, member));
        else if (ts.isSetAccessorDeclaration(member) && memberName)
          out.push(describe(parsed, member, `${className}.${memberName}`, "setter", exported, member));
        else if (ts.isPropertyDeclaration(member) && member.initializer && memberName) {
          const value = unwrap(parsed, member.initializer);
          if (ts.isArrowFunction(value) || ts.isFunctionExpression(value))
            out.push(describe(parsed, value, `${className}.${memberName}`, "arrow", exported, member));
        }
      }
    } else if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      const value = unwrap(parsed, statement.expression);
      if (ts.isArrowFunction(value) || ts.isFunctionExpression(value))
        out.push(describe(parsed, value, "default", ts.isArrowFunction(value) ? "arrow" : "function", true, statement));
    }
  }
  return out;
}
