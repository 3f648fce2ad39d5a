import { defineResourceTemplate, ToolError, type ResourceTemplateDefinition } from "@local-mcp/core";
import type { MochiRuntime } from "../runtime.js";
import { CONVENTIONS_TEMPLATE, EXAMPLES_TEMPLATE, PATTERNS_TEMPLATE, completeNames, entryUri } from "./mochi-uris.js";
import { renderConvention, renderExample, renderPattern } from "./render-markdown.js";

/**
 * The catalog as resources: `mochi://patterns/{name}`, `mochi://conventions/{name}`,
 * `mochi://examples/{id}`, as Markdown. Every body is a function of the catalog alone and names
 * its version, so a URI returns the same bytes until the next `mochi index` (L-idempotent-resource).
 * Listing and completion work without the model; reads wait for it when MOCHI_REQUIRE_ADAPTER is set.
 */
export function catalogResources(runtime: MochiRuntime): ResourceTemplateDefinition[] {
  const catalog = () => runtime.catalog.peek();
  const readable = () => {
    runtime.assertCatalogFeaturesAllowed();
    return runtime.catalog.current();
  };
  const notFound = (what: string, name: string, list: string) =>
    new ToolError("NOT_FOUND", `No ${what} '${name}' in the catalog.`, {
      suggestion: `List the resources or complete ${list} to see what exists.`,
    });

  return [
    defineResourceTemplate({
      uriTemplate: PATTERNS_TEMPLATE,
      name: "patterns",
      title: "Code patterns",
      description: "A recurring construct of this codebase: what it is, where it occurs, the best examples.",
      mimeType: "text/markdown",
      list: async () =>
        (catalog()?.patterns ?? []).map((p) => ({
          uri: entryUri("pattern", p.name),
          name: p.name,
          title: p.title,
          description: `${p.occurrences} occurrences in ${p.files} files`,
        })),
      complete: {
        name: (value) =>
          completeNames(
            (catalog()?.patterns ?? []).map((p) => p.name),
            value,
          ),
      },
      read: async ({ name = "" }) => {
        const current = readable();
        const pattern = current.patterns.find((p) => p.name === name);
        if (!pattern) throw notFound("pattern", name, "mochi://patterns/{name}");
        return { text: renderPattern(pattern, current) };
      },
    }),
    defineResourceTemplate({
      uriTemplate: CONVENTIONS_TEMPLATE,
      name: "conventions",
      title: "Coding conventions",
      description: "How this codebase names things, lays out files, imports, tests and handles errors, with counts.",
      mimeType: "text/markdown",
      list: async () =>
        (catalog()?.conventions ?? []).map((c) => ({
          uri: entryUri("convention", c.name),
          name: c.name,
          title: c.title,
          description: c.summary,
        })),
      complete: {
        name: (value) =>
          completeNames(
            (catalog()?.conventions ?? []).map((c) => c.name),
            value,
          ),
      },
      read: async ({ name = "" }) => {
        const current = readable();
        const convention = current.conventions.find((c) => c.name === name);
        if (!convention) throw notFound("convention", name, "mochi://conventions/{name}");
        return { text: renderConvention(convention, current) };
      },
    }),
    defineResourceTemplate({
      uriTemplate: EXAMPLES_TEMPLATE,
      name: "examples",
      title: "Code examples",
      description: "A snippet of this codebase that shows a pattern or a documented declaration.",
      mimeType: "text/markdown",
      list: async () =>
        (catalog()?.examples ?? []).map((e) => ({
          uri: entryUri("example", e.id),
          name: e.id,
          title: `${e.symbol} (${e.file})`,
          description: e.shows.join(", "),
        })),
      complete: {
        id: (value) =>
          completeNames(
            (catalog()?.examples ?? []).map((e) => e.id),
            value,
          ),
      },
      read: async ({ id = "" }) => {
        const current = readable();
        const example = current.examples.find((e) => e.id === id);
        if (!example) throw notFound("example", id, "mochi://examples/{id}");
        return { text: renderExample(example, current) };
      },
    }),
  ];
}
