/**
 * Rust facts from the tree-sitter syntax tree: functions, methods of `impl` blocks (named
 * `Type.method`; an impl is never a chunk itself, its methods are), structs (kind class), enums,
 * traits (kind interface), type aliases, constants and statics, `let` variables; chunks start at
 * their first `#[…]` attribute and carry their `///` doc comment; imports (core's `use` paths);
 * `panic!`, `.unwrap()`, `.expect()`, `Err(…)` values, `?` checks; patterns.
 */
import type { Node } from "web-tree-sitter";
import { descendants, field, lineOf, namedChildren, type SourceAnalysis } from "@local-mcp/core/code-analysis";
import { FactsCollector, docCommentAbove, endLineOf } from "./syntax-tree-facts.js";
import type { IdentifierKind } from "./source-facts.js";

const ITEM_KINDS: Readonly<Record<string, IdentifierKind>> = {
  struct_item: "class",
  enum_item: "enum",
  trait_item: "interface",
  type_item: "type",
  union_item: "class",
};

export function rustFileFacts(root: Node, analysis: SourceAnalysis): FactsCollector {
  const facts = new FactsCollector();
  for (const specifier of analysis.imports) facts.imports.push({ specifier, style: "rust-use", typeOnly: false });

  /** `chunkMethods`: an impl's functions are chunks; a trait's are part of the trait's chunk. */
  const items = (container: Node | null, owner: string | undefined, chunkMethods = true) => {
    for (const node of namedChildren(container)) {
      const name = field(node, "name")?.text;
      const isPublic = namedChildren(node).some((c) => c.type === "visibility_modifier");
      let first = node;
      while (first.previousSibling?.type === "attribute_item") first = first.previousSibling;
      const startLine = lineOf(first);
      const endLine = endLineOf(node);
      if (node.type === "function_item" && name) {
        const symbol = owner ? `${owner}.${name}` : name;
        facts.declare(owner ? "method" : "function", name, lineOf(node), isPublic);
        for (const parameter of namedChildren(field(node, "parameters")))
          if (parameter.type === "parameter") {
            const pattern = field(parameter, "pattern");
            if (pattern?.type === "identifier") facts.declare("parameter", pattern.text, lineOf(pattern));
          }
        if (chunkMethods) facts.chunk(symbol, owner ? "method" : "function", startLine, endLine, isPublic, docCommentAbove(first));
        const returns = field(node, "return_type")?.text ?? "";
        const parameters = field(node, "parameters")?.text ?? "";
        if (/^(?:[\w:]+::)?Result\b/.test(returns)) facts.hit("result-type", name, startLine, endLine, 2);
        if (/^new/.test(name)) facts.hit("factory-function", name, startLine, endLine, 2);
        if (/^\(\s*(?:mut\s+)?self\b/.test(parameters) && returns === "Self") facts.hit("fluent-builder", name, startLine, endLine);
        bodyFacts(field(node, "body"), symbol, facts);
      } else if (ITEM_KINDS[node.type] && name) {
        const kind = ITEM_KINDS[node.type]!;
        facts.declare(kind, name, lineOf(node), isPublic);
        if (kind !== "type" && !owner) facts.chunk(name, kind, startLine, endLine, isPublic, docCommentAbove(first));
        if ((node.type === "enum_item" || node.type === "struct_item") && /Error$/.test(name))
          facts.hit("custom-error-class", name, startLine, endLine, 2);
        if (node.type === "enum_item") facts.hit("discriminated-union", name, startLine, endLine);
        if (node.type === "trait_item") items(field(node, "body"), name, false);
      } else if ((node.type === "const_item" || node.type === "static_item") && name) {
        facts.declare("constant", name, lineOf(node), isPublic);
      } else if (node.type === "impl_item") {
        const type = field(node, "type");
        const typeName = (type?.type === "generic_type" ? field(type, "type") : type)?.text ?? "";
        const trait = field(node, "trait")?.text ?? "";
        if (/(?:^|::)Error$/.test(trait)) facts.hit("custom-error-class", typeName, startLine, endLine);
        if (/(?:^|::)Drop$/.test(trait)) facts.hit("disposable-resource", typeName, startLine, endLine);
        items(field(node, "body"), typeName);
      } else if (node.type === "mod_item") {
        items(field(node, "body"), owner);
      }
    }
  };
  items(root, undefined);
  return facts.sorted();
}

function bodyFacts(body: Node | null, symbol: string, facts: FactsCollector): void {
  if (!body) return;
  for (const node of descendants(body, ["let_declaration", "macro_invocation", "call_expression", "try_expression", "match_expression"])) {
    switch (node.type) {
      case "let_declaration": {
        const pattern = field(node, "pattern");
        const id = pattern?.type === "mut_pattern" ? namedChildren(pattern)[0] : pattern;
        if (id?.type === "identifier") facts.declare("variable", id.text, lineOf(id));
        break;
      }
      case "macro_invocation":
        if (field(node, "macro")?.text === "panic") facts.errors.thrown.push("panic!");
        break;
      case "call_expression": {
        const callee = field(node, "function");
        if (callee?.type === "identifier" && callee.text === "Err") facts.errors.errorValues += 1;
        const method = callee?.type === "field_expression" ? field(callee, "field")?.text : undefined;
        if (method === "unwrap") facts.errors.thrown.push("unwrap()");
        if (method === "expect") facts.errors.thrown.push("expect()");
        break;
      }
      case "try_expression":
        facts.errors.errorChecks += 1;
        break;
      case "match_expression": {
        const text = field(node, "body")?.text ?? "";
        const quality = /\bpanic!|\bErr\(/.test(text) ? 3 : /\breturn\b/.test(text) ? 2 : 1;
        facts.hit("error-handling", symbol, lineOf(node), endLineOf(node), quality);
        break;
      }
    }
  }
}
