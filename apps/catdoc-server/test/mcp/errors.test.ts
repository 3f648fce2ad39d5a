/** Errors an agent can act on: missing project, unknown ids, bad arguments, a malformed file. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callError, useCatDoc, writeProject } from "./helpers.js";

const { example, tempDir, connect } = useCatDoc();

/** One valid call of every tool but init (which is what a missing project needs). */
const CALLS: [string, Record<string, unknown>][] = [
  ["catdoc_list_categories", {}],
  ["catdoc_show_category", { categoryId: "c" }],
  ["catdoc_list_objects", {}],
  ["catdoc_show_object", { objectId: "o" }],
  ["catdoc_import_document", { filePath: "docs" }],
  ["catdoc_list_morphisms", {}],
  ["catdoc_show_morphism", { morphismId: "m" }],
  ["catdoc_validate", {}],
  ["catdoc_validate_category", { categoryId: "c" }],
  ["catdoc_validate_functor", { functorId: "f" }],
  ["catdoc_validate_natural_transformation", { id: "n" }],
  ["catdoc_trace", { sourceId: "a", targetId: "b" }],
  ["catdoc_coverage", {}],
  ["catdoc_search", { query: "x" }],
  ["catdoc_list_functors", {}],
  ["catdoc_show_functor", { functorId: "f" }],
  ["catdoc_list_natural_transformations", {}],
  ["catdoc_show_natural_transformation", { id: "n" }],
  ["catdoc_get_graph", {}],
];

describe("tool errors", () => {
  it("says the project is not initialized, from every tool", async () => {
    const client = await connect(await tempDir());
    for (const [name, args] of CALLS) {
      const error = await callError(client, name, args);
      expect(error, name).toMatchObject({
        code: "NOT_FOUND",
        status: 404,
        message: "CatDoc project not initialized. Run catdoc_init first.",
        recoverable: true,
      });
      expect(error.suggestion, name).toContain("catdoc_init");
    }
  });

  it("names unknown ids and the tool that lists what exists", async () => {
    const { client } = await example("math-docs");
    const cases: [string, Record<string, unknown>, string, string][] = [
      ["catdoc_show_category", { categoryId: "x" }, "Category 'x' not found", "catdoc_list_categories"],
      ["catdoc_validate_category", { categoryId: "x" }, "Category 'x' not found", "catdoc_list_categories"],
      ["catdoc_validate", { categoryId: "x" }, "Category 'x' not found", "catdoc_list_categories"],
      ["catdoc_list_objects", { categoryId: "x" }, "Category 'x' not found", "catdoc_list_categories"],
      ["catdoc_list_morphisms", { categoryId: "x" }, "Category 'x' not found", "catdoc_list_categories"],
      ["catdoc_get_graph", { categoryId: "x" }, "Category 'x' not found", "catdoc_list_categories"],
      ["catdoc_search", { query: "group", categoryId: "x" }, "Category 'x' not found", "catdoc_list_categories"],
      ["catdoc_show_object", { objectId: "nope" }, "Object 'nope' not found", "catdoc_search"],
      [
        "catdoc_show_object",
        { objectId: "sets", categoryId: "topology" },
        "Object 'sets' not found in category 'topology'",
        "catdoc_search",
      ],
      ["catdoc_trace", { sourceId: "sets", targetId: "nope" }, "Object 'nope' not found in category 'algebra'", "catdoc_search"],
      ["catdoc_trace", { sourceId: "nope", targetId: "sets" }, "Object 'nope' not found", "catdoc_search"],
      ["catdoc_show_morphism", { morphismId: "nope" }, "Morphism 'nope' not found", "catdoc_list_morphisms"],
      ["catdoc_show_functor", { functorId: "nope" }, "Functor 'nope' not found", "catdoc_list_functors"],
      ["catdoc_validate_functor", { functorId: "nope" }, "Functor 'nope' not found", "catdoc_list_functors"],
      [
        "catdoc_show_natural_transformation",
        { id: "nope" },
        "Natural transformation 'nope' not found",
        "catdoc_list_natural_transformations",
      ],
      [
        "catdoc_validate_natural_transformation",
        { id: "nope" },
        "Natural transformation 'nope' not found",
        "catdoc_list_natural_transformations",
      ],
    ];
    for (const [name, args, message, tool] of cases) {
      const error = await callError(client, name, args);
      expect(error, name).toMatchObject({ code: "NOT_FOUND", message });
      expect(error.suggestion, name).toContain(tool);
    }
  });

  it("refuses bad arguments with INVALID_INPUT naming the field", async () => {
    const { client } = await example("math-docs");
    const cases: [string, Record<string, unknown>, string][] = [
      ["catdoc_show_category", {}, "categoryId"],
      ["catdoc_show_category", { categoryId: 12 }, "categoryId"],
      ["catdoc_list_objects", { limit: 0 }, "limit"],
      ["catdoc_list_objects", { limit: 100_000 }, "limit"],
      ["catdoc_list_morphisms", { offset: -1 }, "offset"],
      ["catdoc_search", { query: "   " }, "query"],
      ["catdoc_trace", { sourceId: "sets", targetId: "fields", maxDepth: 0 }, "maxDepth"],
      ["catdoc_validate", { response_level: "everything" }, "response_level"],
      ["catdoc_list_categories", { bogus: true }, "bogus"],
      ["catdoc_list_categories", { format: "xml" }, "format"],
    ];
    for (const [name, args, field] of cases) {
      const error = await callError(client, name, args);
      expect(error.code, `${name} ${JSON.stringify(args)}`).toBe("INVALID_INPUT");
      expect(error.message).toContain(field);
      expect((error.details?.["fields"] as { field: string }[]).map((f) => f.field)).toContain(field);
    }
  });

  it("reports a malformed category.yaml with file, line and column", async () => {
    const root = await writeProject(await tempDir(), "categories:\n  - id: c\n    name: [unclosed\n");
    const client = await connect(root);
    const error = await callError(client, "catdoc_list_categories");
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/^\.catdoc\/category\.yaml:\d+:\d+:/);
    expect(error.details).toMatchObject({ file: ".catdoc/category.yaml", totalIssues: expect.any(Number) });
    // A shape error names the field's path.
    await writeFile(join(root, ".catdoc", "category.yaml"), "categories:\n  - id: c\n    objects: []\n");
    const shape = await callError(client, "catdoc_validate");
    expect(shape.message).toMatch(/^\.catdoc\/category\.yaml:2:\d+: categories\[0\]\.name:/);
  });
});
