/**
 * Graph data as Mermaid (`flowchart LR`) or Graphviz DOT: one cluster per category, objects as
 * boxes labelled with title and id, morphisms as labelled arrows, functor arrows dashed.
 * Identity morphisms are left out unless asked for (every object has one; they add only loops).
 * Arrows whose source or target is not an object of the graph are left out and listed in a
 * comment. All labels are escaped for their format.
 */
import type { GraphData, GraphEdge } from "../../dashboard/graph.js";
import { oneLine } from "../text-width.js";

export interface GraphTextOptions {
  identities?: boolean;
}

interface Prepared {
  /** Object id → node name used in the output (first definition wins). */
  names: Map<string, string>;
  edges: GraphEdge[];
  skipped: GraphEdge[];
}

function prepare(graph: GraphData, options: GraphTextOptions, nameOf: (index: number, id: string) => string): Prepared {
  const names = new Map<string, string>();
  graph.nodes.forEach((node, i) => {
    if (!names.has(node.id)) names.set(node.id, nameOf(i, node.id));
  });
  const edges: GraphEdge[] = [];
  const skipped: GraphEdge[] = [];
  for (const edge of graph.edges) {
    if (edge.isIdentity && options.identities !== true) continue;
    if (names.has(edge.source) && names.has(edge.target)) edges.push(edge);
    else skipped.push(edge);
  }
  return { names, edges, skipped };
}

/** Mermaid label text inside double quotes: entity codes for the characters Mermaid reads. */
function mermaidText(text: string): string {
  return oneLine(text).replace(/#/g, "#35;").replace(/"/g, "#quot;").replace(/</g, "#lt;").replace(/>/g, "#gt;");
}

export function toMermaid(graph: GraphData, options: GraphTextOptions = {}): string {
  const { names, edges, skipped } = prepare(graph, options, (i) => `n${i}`);
  const lines = ["flowchart LR"];
  graph.categories.forEach((category, c) => {
    lines.push(`  subgraph c${c}["${mermaidText(`${category.name} (${category.id})`)}"]`);
    graph.nodes.forEach((node, i) => {
      if (node.categoryId === category.id && names.get(node.id) === `n${i}`) {
        lines.push(`    n${i}["${mermaidText(node.label)}<br/>${mermaidText(node.id)}"]`);
      }
    });
    lines.push("  end");
  });
  for (const edge of edges) {
    const link = edge.type === "functor" ? "-.->" : "-->";
    lines.push(`  ${names.get(edge.source)} ${link}|"${mermaidText(edge.label)}"| ${names.get(edge.target)}`);
  }
  for (const edge of skipped)
    lines.push(`  %% skipped ${mermaidText(edge.id)}: ${mermaidText(edge.source)} -> ${mermaidText(edge.target)} (undefined endpoint)`);
  return `${lines.join("\n")}\n`;
}

/** A DOT double-quoted string. */
function dotString(text: string): string {
  return `"${oneLine(text).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export function toDot(graph: GraphData, options: GraphTextOptions = {}): string {
  const { edges, skipped } = prepare(graph, options, (_i, id) => id);
  const lines = [
    "digraph catdoc {",
    "  rankdir=LR;",
    '  node [shape=box, style=rounded, fontname="sans-serif"];',
    '  edge [fontname="sans-serif", fontsize=10];',
  ];
  const placed = new Set<string>();
  graph.categories.forEach((category, c) => {
    lines.push(`  subgraph ${dotString(`cluster_${c}`)} {`, `    label=${dotString(`${category.name} (${category.id})`)};`);
    for (const node of graph.nodes) {
      if (node.categoryId !== category.id || placed.has(node.id)) continue;
      placed.add(node.id);
      // "\n" is DOT's line break inside a label; the texts themselves are escaped.
      lines.push(`    ${dotString(node.id)} [label=${dotString(node.label).slice(0, -1)}\\n${dotString(node.id).slice(1)}];`);
    }
    lines.push("  }");
  });
  for (const edge of edges) {
    const style = edge.type === "functor" ? ", style=dashed, color=purple" : edge.isIdentity ? ", style=dotted" : "";
    lines.push(`  ${dotString(edge.source)} -> ${dotString(edge.target)} [label=${dotString(edge.label)}${style}];`);
  }
  for (const edge of skipped) lines.push(`  // skipped ${oneLine(edge.id)}: undefined endpoint`);
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
