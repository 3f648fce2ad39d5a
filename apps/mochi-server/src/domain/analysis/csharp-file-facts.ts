/**
 * C# facts from the tree-sitter syntax tree: classes, structs and records (kind class),
 * interfaces, enums, methods, properties, `const`/`static readonly` fields (constants), other
 * fields (properties), parameters and local variables; top-level types (also inside namespaces)
 * are chunks with their `///` XML doc comment as text, and a type longer than 80 lines gives its
 * methods instead; imports (core's `using` targets); `throw new X`, try/catch styles; patterns.
 * Exported means `public`.
 */
import type { Node } from "web-tree-sitter";
import { descendants, field, lineOf, namedChildren, type SourceAnalysis } from "@local-mcp/core/code-analysis";
import { CATCH_QUALITY, FactsCollector, LONG_CONTAINER_LINES, catchStyleOf, docCommentAbove, endLineOf } from "./syntax-tree-facts.js";
import type { CatchStyle, IdentifierKind } from "./source-facts.js";

const TYPE_KINDS: Readonly<Record<string, IdentifierKind>> = {
  class_declaration: "class",
  struct_declaration: "class",
  record_declaration: "class",
  record_struct_declaration: "class",
  interface_declaration: "interface",
  enum_declaration: "enum",
};
const NAMESPACES = new Set(["namespace_declaration", "file_scoped_namespace_declaration"]);
const LOCAL_FUNCTIONS = new Set(["local_function_statement", "lambda_expression", "anonymous_method_expression"]);

export function csharpFileFacts(root: Node, analysis: SourceAnalysis): FactsCollector {
  const facts = new FactsCollector();
  for (const specifier of analysis.imports) facts.imports.push({ specifier, style: "csharp-using", typeOnly: false });
  const modifiers = (node: Node) =>
    new Set(
      namedChildren(node)
        .filter((c) => c.type === "modifier")
        .map((c) => c.text),
    );

  const typeFacts = (node: Node, owner: string | undefined, topLevel: boolean) => {
    const name = field(node, "name")?.text;
    const kind = TYPE_KINDS[node.type];
    if (!name || !kind) return;
    const symbol = owner ? `${owner}.${name}` : name;
    const own = modifiers(node);
    const isPublic = own.has("public");
    const startLine = lineOf(node);
    const endLine = endLineOf(node);
    facts.declare(kind, name, lineOf(field(node, "name") ?? node), isPublic);
    const bases = namedChildren(namedChildren(node).find((c) => c.type === "base_list")).map((b) => b.text);
    if (bases.some((b) => /(?:Exception|Error)$/.test(b))) facts.hit("custom-error-class", name, startLine, endLine, 2);
    if (bases.some((b) => /^(?:System\.)?I(?:Async)?Disposable$/.test(b))) facts.hit("disposable-resource", name, startLine, endLine);
    if (own.has("abstract") && kind === "class") facts.hit("abstract-base-class", name, startLine, endLine, 2);
    if (node.type.startsWith("record_")) facts.hit("data-class", name, startLine, endLine, 2);
    const long = endLine - startLine + 1 > LONG_CONTAINER_LINES;
    if (topLevel && !long) facts.chunk(symbol, kind, startLine, endLine, isPublic, xmlDoc(docCommentAbove(node)));
    for (const member of namedChildren(field(node, "body"))) {
      if (TYPE_KINDS[member.type]) typeFacts(member, symbol, false);
      else if (member.type === "field_declaration") {
        const memberModifiers = modifiers(member);
        const constant = memberModifiers.has("const") || (memberModifiers.has("static") && memberModifiers.has("readonly"));
        for (const declarator of descendants(member, "variable_declarator")) {
          const id = field(declarator, "name") ?? namedChildren(declarator)[0];
          if (id) facts.declare(constant ? "constant" : "property", id.text, lineOf(id), memberModifiers.has("public"));
        }
      } else if (member.type === "property_declaration") {
        const id = field(member, "name");
        if (id) facts.declare("property", id.text, lineOf(id), modifiers(member).has("public"));
      } else if (member.type === "method_declaration" || member.type === "constructor_declaration") {
        methodFacts(member, symbol, topLevel && long, isPublic);
      }
    }
  };

  const methodFacts = (node: Node, owner: string, chunked: boolean, ownerPublic: boolean) => {
    const name = field(node, "name")?.text;
    if (!name) return;
    const own = modifiers(node);
    const startLine = lineOf(node);
    const endLine = endLineOf(node);
    // A constructor is not a method by its naming (it bears the type's name).
    if (node.type === "method_declaration") facts.declare("method", name, lineOf(field(node, "name") ?? node), own.has("public"));
    for (const parameter of namedChildren(field(node, "parameters"))) {
      const id = field(parameter, "name");
      if (id) facts.declare("parameter", id.text, lineOf(id));
    }
    const body = field(node, "body");
    if (chunked && body) facts.chunk(`${owner}.${name}`, "method", startLine, endLine, ownerPublic, xmlDoc(docCommentAbove(node)));
    if (own.has("static") && /^(?:Create|Of|From|New)/.test(name)) facts.hit("factory-function", name, startLine, endLine, 2);
    if (/^Register/.test(name)) facts.hit("registry", name, startLine, endLine);
    if (!body) return;
    const kinds = ["variable_declarator", "throw_statement", "throw_expression", "try_statement", "return_statement"];
    for (const inner of descendants(body, kinds)) {
      switch (inner.type) {
        case "variable_declarator": {
          const id = field(inner, "name") ?? namedChildren(inner)[0];
          if (id?.type === "identifier") facts.declare("variable", id.text, lineOf(id));
          break;
        }
        case "throw_statement":
        case "throw_expression": {
          const thrown = namedChildren(inner)[0];
          facts.errors.thrown.push(
            thrown?.type === "object_creation_expression" ? (field(thrown, "type")?.text ?? "(value)") : thrown ? "(value)" : "(re-throw)",
          );
          break;
        }
        case "try_statement": {
          facts.errors.tryBlocks += 1;
          const styles: CatchStyle[] = [];
          for (const clause of namedChildren(inner))
            if (clause.type === "catch_clause") {
              const style = catchStyleOf(field(clause, "body"), ["throw_statement", "throw_expression"], LOCAL_FUNCTIONS);
              styles.push(style);
              facts.errors.catches[style] += 1;
            }
          const best = (["rethrow", "fallback", "handle", "swallow"] as const).find((s) => styles.includes(s));
          facts.hit("error-handling", `${owner}.${name}`, lineOf(inner), endLineOf(inner), best ? CATCH_QUALITY[best] : 1);
          break;
        }
        case "return_statement":
          if (namedChildren(inner)[0]?.type === "this") facts.hit("fluent-builder", owner, lineOf(inner), endLineOf(inner));
          break;
      }
    }
  };

  const members = (container: Node) => {
    for (const node of namedChildren(container)) {
      if (NAMESPACES.has(node.type)) members(field(node, "body") ?? node);
      else if (node.type === "declaration_list") members(node);
      else typeFacts(node, undefined, true);
    }
  };
  members(root);
  return facts.sorted();
}

/** A `///` XML doc comment as text: `<summary>Finds…</summary>` → `Finds…`. */
function xmlDoc(doc: string | undefined): string | undefined {
  if (doc === undefined) return undefined;
  const text = doc
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return text.length > 0 ? text : undefined;
}
