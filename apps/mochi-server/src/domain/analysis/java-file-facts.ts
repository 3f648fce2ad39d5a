/**
 * Java facts from the tree-sitter syntax tree: classes and records (kind class), interfaces,
 * enums, methods, `static final` fields (constants), other fields (properties), parameters and
 * local variables; top-level types are chunks with their `/** *\/` doc comment, and a type longer
 * than 80 lines gives its methods instead; imports (core's, full paths); `throw new X`, try/catch
 * styles; patterns. Exported means `public`.
 */
import type { Node } from "web-tree-sitter";
import { descendants, field, lineOf, namedChildren, type SourceAnalysis } from "@local-mcp/core/code-analysis";
import { CATCH_QUALITY, FactsCollector, LONG_CONTAINER_LINES, catchStyleOf, docCommentAbove, endLineOf } from "./syntax-tree-facts.js";
import type { CatchStyle, IdentifierKind } from "./source-facts.js";

const TYPE_KINDS: Readonly<Record<string, IdentifierKind>> = {
  class_declaration: "class",
  record_declaration: "class",
  interface_declaration: "interface",
  enum_declaration: "enum",
};

export function javaFileFacts(root: Node, analysis: SourceAnalysis): FactsCollector {
  const facts = new FactsCollector();
  for (const specifier of analysis.imports) facts.imports.push({ specifier, style: "java-import", typeOnly: false });
  const modifiersOf = (node: Node) => namedChildren(node).find((c) => c.type === "modifiers")?.text ?? "";

  const typeFacts = (node: Node, owner: string | undefined, topLevel: boolean) => {
    const name = field(node, "name")?.text;
    const kind = TYPE_KINDS[node.type];
    if (!name || !kind) return;
    const symbol = owner ? `${owner}.${name}` : name;
    const modifiers = modifiersOf(node);
    const isPublic = /\bpublic\b/.test(modifiers);
    const startLine = lineOf(node);
    const endLine = endLineOf(node);
    facts.declare(kind, name, lineOf(field(node, "name") ?? node), isPublic);
    const superclass = namedChildren(node).find((c) => c.type === "superclass")?.text ?? "";
    const interfaces = namedChildren(node).find((c) => c.type === "super_interfaces")?.text ?? "";
    if (/(?:Exception|Error)\s*$/.test(superclass)) facts.hit("custom-error-class", name, startLine, endLine, 2);
    if (/\b(?:AutoCloseable|Closeable)\b/.test(interfaces)) facts.hit("disposable-resource", name, startLine, endLine);
    if (/\babstract\b/.test(modifiers) && kind === "class") facts.hit("abstract-base-class", name, startLine, endLine, 2);
    if (node.type === "record_declaration") facts.hit("data-class", name, startLine, endLine, 2);
    const long = endLine - startLine + 1 > LONG_CONTAINER_LINES;
    if (topLevel && !long) facts.chunk(symbol, kind, startLine, endLine, isPublic, docCommentAbove(node));
    for (const member of namedChildren(field(node, "body"))) {
      if (TYPE_KINDS[member.type]) typeFacts(member, symbol, false);
      else if (member.type === "field_declaration" || member.type === "constant_declaration") {
        const constant =
          member.type === "constant_declaration" || (/\bstatic\b/.test(modifiersOf(member)) && /\bfinal\b/.test(modifiersOf(member)));
        for (const declarator of member.childrenForFieldName("declarator")) {
          const id = declarator && field(declarator, "name");
          if (id) facts.declare(constant ? "constant" : "property", id.text, lineOf(id), /\bpublic\b/.test(modifiersOf(member)));
        }
      } else if (member.type === "method_declaration" || member.type === "constructor_declaration") {
        methodFacts(member, symbol, topLevel && long, isPublic);
      } else if (member.type === "enum_body_declarations") {
        for (const inner of namedChildren(member))
          if (inner.type === "method_declaration") methodFacts(inner, symbol, topLevel && long, isPublic);
      }
    }
  };

  const methodFacts = (node: Node, owner: string, chunked: boolean, ownerPublic: boolean) => {
    const name = field(node, "name")?.text;
    if (!name) return;
    const symbol = `${owner}.${name}`;
    const modifiers = modifiersOf(node);
    const startLine = lineOf(node);
    const endLine = endLineOf(node);
    // A constructor is not a method by its naming (it bears the class's name).
    if (node.type === "method_declaration")
      facts.declare("method", name, lineOf(field(node, "name") ?? node), /\bpublic\b/.test(modifiers));
    for (const parameter of namedChildren(field(node, "parameters"))) {
      const id = field(parameter, "name");
      if (id) facts.declare("parameter", id.text, lineOf(id));
    }
    if (chunked && field(node, "body")) facts.chunk(symbol, "method", startLine, endLine, ownerPublic, docCommentAbove(node));
    if (/\bstatic\b/.test(modifiers) && /^(?:create|of|from|new)/.test(name)) facts.hit("factory-function", name, startLine, endLine, 2);
    if (/^register/.test(name) && field(node, "type")?.text === "void") facts.hit("registry", name, startLine, endLine);
    const body = field(node, "body");
    if (!body) return;
    for (const inner of descendants(body, [
      "local_variable_declaration",
      "throw_statement",
      "try_statement",
      "try_with_resources_statement",
      "return_statement",
    ])) {
      switch (inner.type) {
        case "local_variable_declaration":
          for (const declarator of inner.childrenForFieldName("declarator")) {
            const id = declarator && field(declarator, "name");
            if (id) facts.declare("variable", id.text, lineOf(id));
          }
          break;
        case "throw_statement": {
          const thrown = namedChildren(inner)[0];
          facts.errors.thrown.push(thrown?.type === "object_creation_expression" ? (field(thrown, "type")?.text ?? "(value)") : "(value)");
          break;
        }
        case "try_statement":
        case "try_with_resources_statement": {
          facts.errors.tryBlocks += 1;
          const styles: CatchStyle[] = [];
          for (const clause of namedChildren(inner))
            if (clause.type === "catch_clause") {
              const style = catchStyleOf(field(clause, "body"), ["throw_statement"]);
              styles.push(style);
              facts.errors.catches[style] += 1;
            }
          const best = (["rethrow", "fallback", "handle", "swallow"] as const).find((s) => styles.includes(s));
          facts.hit("error-handling", symbol, lineOf(inner), endLineOf(inner), best ? CATCH_QUALITY[best] : 1);
          break;
        }
        case "return_statement":
          if (namedChildren(inner)[0]?.type === "this") facts.hit("fluent-builder", owner, lineOf(inner), endLineOf(inner));
          break;
      }
    }
  };

  for (const node of namedChildren(root)) typeFacts(node, undefined, true);
  return facts.sorted();
}
