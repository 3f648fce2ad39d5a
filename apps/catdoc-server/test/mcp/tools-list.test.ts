/** The tool list: the 19 tools of the seed's table and those added since (catdoc_coverage, catdoc_review, catdoc_edit), each on the core contract. */
import { describe, expect, it } from "vitest";
import { ProjectAccess } from "../../src/project-access.js";
import { catDocTools } from "../../src/tools/index.js";
import { useCatDoc } from "./helpers.js";

const { example } = useCatDoc();

/** The seed's table: name and its inputs (we may add optional ones). */
const SEED_TABLE: [string, string[], string[]][] = [
  ["catdoc_init", [], ["directory", "force"]],
  ["catdoc_list_categories", [], ["format"]],
  ["catdoc_show_category", ["categoryId"], []],
  ["catdoc_list_objects", [], ["domain", "limit"]],
  ["catdoc_show_object", ["objectId"], []],
  ["catdoc_import_document", ["filePath"], ["domain"]],
  ["catdoc_list_morphisms", [], ["categoryId"]],
  ["catdoc_show_morphism", ["morphismId"], []],
  ["catdoc_validate", [], ["categoryId"]],
  ["catdoc_validate_category", ["categoryId"], []],
  ["catdoc_validate_functor", ["functorId"], []],
  ["catdoc_validate_natural_transformation", ["id"], []],
  ["catdoc_trace", ["sourceId"], ["targetId", "direction", "findAll"]],
  ["catdoc_coverage", [], ["functorId", "limit"]],
  ["catdoc_search", ["query"], ["domain", "limit"]],
  ["catdoc_list_functors", [], []],
  ["catdoc_show_functor", ["functorId"], []],
  ["catdoc_list_natural_transformations", [], []],
  ["catdoc_show_natural_transformation", ["id"], []],
  ["catdoc_get_graph", [], ["categoryId"]],
  ["catdoc_review", [], ["ids", "all"]],
  ["catdoc_edit", ["op", "kind", "id"], ["fields", "newId", "from", "to", "cascade", "force", "dryRun"]],
];

const WRITERS = new Set(["catdoc_init", "catdoc_import_document", "catdoc_review", "catdoc_edit"]);

describe("tools/list", () => {
  it("lists the seed's 19 tools, catdoc_coverage, catdoc_review and catdoc_edit with its inputs, explicit annotations and output schemas", async () => {
    const { root, client } = await example("math-docs");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(SEED_TABLE.map(([name]) => name));
    expect(catDocTools(new ProjectAccess(root)).map((t) => t.name)).toEqual(SEED_TABLE.map(([name]) => name));
    for (const [name, required, optional] of SEED_TABLE) {
      const tool = tools.find((t) => t.name === name);
      const schema = tool?.inputSchema as { properties: Record<string, unknown>; required?: string[]; additionalProperties?: boolean };
      expect(schema.required ?? [], name).toEqual(required);
      for (const input of [...required, ...optional, "response_level"]) expect(Object.keys(schema.properties), name).toContain(input);
      expect(schema.additionalProperties, name).toBe(false);
      expect(tool?.outputSchema, name).toBeDefined();
      expect(tool?.annotations, name).toMatchObject({
        readOnlyHint: !WRITERS.has(name),
        openWorldHint: false,
        destructiveHint: WRITERS.has(name),
      });
      expect(typeof tool?.annotations?.idempotentHint, name).toBe("boolean");
      expect(tool?.description?.length ?? 0, name).toBeGreaterThan(120);
      expect(tool?.title, name).toBeTruthy();
    }
  });
});
