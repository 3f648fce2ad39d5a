/** Interfaces, type aliases and enums declared at the top of a TS module. */
import { hasModifier, type ParsedSource } from "./source-file.js";

export interface TypeDeclarationInfo {
  name: string;
  kind: "interface" | "type" | "enum";
  line: number;
  exported: boolean;
}

export function collectTypeDeclarations(parsed: ParsedSource): TypeDeclarationInfo[] {
  const { ts, sourceFile } = parsed;
  const out: TypeDeclarationInfo[] = [];
  for (const statement of sourceFile.statements) {
    const exported = hasModifier(parsed, statement, ts.SyntaxKind.ExportKeyword);
    const line = parsed.line(statement);
    if (ts.isInterfaceDeclaration(statement)) out.push({ name: statement.name.text, kind: "interface", line, exported });
    else if (ts.isTypeAliasDeclaration(statement)) out.push({ name: statement.name.text, kind: "type", line, exported });
    else if (ts.isEnumDeclaration(statement)) out.push({ name: statement.name.text, kind: "enum", line, exported });
  }
  return out;
}
