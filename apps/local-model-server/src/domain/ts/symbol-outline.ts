/** The outline of a TS/JS module: top-level declarations (level 1) and class members (level 2). */
import type ts from "typescript";
import type { OutlineItem } from "../markdown/outline.js";
import { bindingNames, hasModifier, type ParsedSource } from "./source-file.js";

export function symbolOutline(parsed: ParsedSource): OutlineItem[] {
  const { ts, sourceFile } = parsed;
  const items: OutlineItem[] = [];
  const endLine = (node: ts.Node) => sourceFile.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
  const add = (level: number, kind: string, name: string, node: ts.Node) =>
    items.push({ level, kind, name, line: parsed.line(node), endLine: endLine(node) });
  for (const statement of sourceFile.statements) {
    const isDefault = hasModifier(parsed, statement, ts.SyntaxKind.DefaultKeyword);
    if (ts.isFunctionDeclaration(statement)) add(1, "function", isDefault ? "default" : (statement.name?.text ?? "default"), statement);
    else if (ts.isClassDeclaration(statement)) {
      add(1, "class", statement.name?.text ?? "default", statement);
      for (const member of statement.members) {
        const name =
          member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) || ts.isPrivateIdentifier(member.name))
            ? member.name.text
            : undefined;
        if (ts.isConstructorDeclaration(member)) add(2, "constructor", "constructor", member);
        else if (ts.isMethodDeclaration(member) && name) add(2, "method", name, member);
        else if (ts.isPropertyDeclaration(member) && name) add(2, "property", name, member);
        else if (ts.isGetAccessorDeclaration(member) && name) add(2, "getter", name, member);
        else if (ts.isSetAccessorDeclaration(member) && name) add(2, "setter", name, member);
      }
    } else if (ts.isInterfaceDeclaration(statement)) add(1, "interface", statement.name.text, statement);
    else if (ts.isTypeAliasDeclaration(statement)) add(1, "type", statement.name.text, statement);
    else if (ts.isEnumDeclaration(statement)) add(1, "enum", statement.name.text, statement);
    else if (ts.isModuleDeclaration(statement)) add(1, "namespace", statement.name.text, statement);
    else if (ts.isVariableStatement(statement)) {
      const flags = statement.declarationList.flags;
      const kind = flags & ts.NodeFlags.Const ? "const" : flags & ts.NodeFlags.Let ? "let" : "var";
      for (const declaration of statement.declarationList.declarations) {
        for (const name of bindingNames(parsed, declaration.name)) add(1, kind, name, declaration);
      }
    } else if (ts.isExportAssignment(statement)) add(1, "default", statement.isExportEquals ? "export=" : "default", statement);
  }
  return items;
}
