/**
 * Go facts from the tree-sitter syntax tree: functions, methods (named `Receiver.Method`),
 * structs (kind class), interfaces, other types, constants and variables; each top-level
 * declaration with a body is a chunk with its `//` doc comment; imports (core's, as paths);
 * `errors.New`/`fmt.Errorf`/`panic` calls, `if err != nil` checks and errors returned; patterns.
 */
import type { Node } from "web-tree-sitter";
import { descendants, field, hasToken, lineOf, namedChildren, type SourceAnalysis } from "@local-mcp/core/code-analysis";
import { FactsCollector, docCommentAbove, endLineOf } from "./syntax-tree-facts.js";

const THROWING_CALLS = new Set(["errors.New", "fmt.Errorf", "panic"]);

export function goFileFacts(root: Node, analysis: SourceAnalysis): FactsCollector {
  const facts = new FactsCollector();
  const exported = (name: string) => /^\p{Lu}/u.test(name);
  for (const specifier of analysis.imports) facts.imports.push({ specifier, style: "go-import", typeOnly: false });

  for (const node of namedChildren(root)) {
    const startLine = lineOf(node);
    const endLine = endLineOf(node);
    if (node.type === "function_declaration" || node.type === "method_declaration") {
      const name = field(node, "name")?.text;
      if (!name) continue;
      const receiver =
        node.type === "method_declaration" ? descendants(field(node, "receiver") ?? node, "type_identifier")[0]?.text : undefined;
      const symbol = receiver ? `${receiver}.${name}` : name;
      facts.declare(receiver ? "method" : "function", name, startLine, exported(name));
      for (const parameter of descendants(field(node, "parameters") ?? node, "parameter_declaration"))
        for (const id of namedChildren(parameter)) if (id.type === "identifier") facts.declare("parameter", id.text, lineOf(id));
      facts.chunk(symbol, receiver ? "method" : "function", startLine, endLine, exported(name), docCommentAbove(node));
      const parameters = field(node, "parameters")?.text ?? "";
      if (receiver && name === "Error" && /^\(\s*\)$/.test(parameters) && field(node, "result")?.text === "string")
        facts.hit("custom-error-class", receiver, startLine, endLine, 2);
      if (!receiver && /^New/.test(name)) facts.hit("factory-function", name, startLine, endLine, 2);
      if (receiver && name === "Close") facts.hit("disposable-resource", receiver, startLine, endLine);
      if (/^Register/.test(name)) facts.hit("registry", name, startLine, endLine);
      if (/\.\.\.\s*\w*Option\b/.test(parameters)) facts.hit("options-object", name, startLine, endLine, 2);
      bodyFacts(field(node, "body"), symbol, facts);
    } else if (node.type === "type_declaration") {
      const specs = namedChildren(node).filter((spec) => spec.type === "type_spec" || spec.type === "type_alias");
      // In a group (`type ( … )`) each type is its own chunk, with the doc comment above it.
      const grouped = specs.length > 1 || hasToken(node, "(");
      for (const spec of specs) {
        const [startLine, endLine, documented] = grouped ? [lineOf(spec), endLineOf(spec), spec] : [lineOf(node), endLineOf(node), node];
        const name = field(spec, "name")?.text;
        const type = field(spec, "type");
        if (!name) continue;
        const kind = type?.type === "struct_type" ? "class" : type?.type === "interface_type" ? "interface" : "type";
        facts.declare(kind, name, lineOf(spec), exported(name));
        if (kind !== "type") facts.chunk(name, kind, startLine, endLine, exported(name), docCommentAbove(documented));
        if (kind === "class" && /Error$/.test(name)) facts.hit("custom-error-class", name, startLine, endLine, 2);
        if (kind === "class" && /(?:Options|Config)$/.test(name)) facts.hit("options-object", name, startLine, endLine);
      }
    } else if (node.type === "const_declaration" || node.type === "var_declaration") {
      for (const spec of namedChildren(node))
        for (const id of spec.childrenForFieldName("name"))
          if (id) facts.declare(node.type === "const_declaration" ? "constant" : "variable", id.text, lineOf(id), exported(id.text));
    }
  }
  return facts.sorted();
}

function bodyFacts(body: Node | null, symbol: string, facts: FactsCollector): void {
  if (!body) return;
  for (const node of descendants(body, ["short_var_declaration", "var_spec", "call_expression", "if_statement", "return_statement"])) {
    switch (node.type) {
      case "short_var_declaration":
        for (const id of namedChildren(field(node, "left"))) if (id.type === "identifier") facts.declare("variable", id.text, lineOf(id));
        break;
      case "var_spec":
        for (const id of node.childrenForFieldName("name")) if (id) facts.declare("variable", id.text, lineOf(id));
        break;
      case "call_expression": {
        const callee = field(node, "function")?.text ?? "";
        if (THROWING_CALLS.has(callee)) facts.errors.thrown.push(callee);
        break;
      }
      case "if_statement": {
        if (!/\berr\s*!=\s*nil\b/.test(field(node, "condition")?.text ?? "")) break;
        facts.errors.errorChecks += 1;
        const consequence = field(node, "consequence");
        const text = consequence?.text ?? "";
        const quality = /\bpanic\b|Errorf\(/.test(text) ? 3 : /\breturn\b/.test(text) ? 2 : 1;
        facts.hit("error-handling", symbol, lineOf(node), endLineOf(consequence ?? node), quality);
        break;
      }
      case "return_statement":
        if (/\berr\b|errors\.New\(|fmt\.Errorf\(/.test(node.text)) facts.errors.errorValues += 1;
        break;
    }
  }
}
