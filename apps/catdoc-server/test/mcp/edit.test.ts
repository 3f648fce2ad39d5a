/** catdoc_edit through the real SDK client in-process: authoring a functor, the candidate images, refusals that write nothing, levels. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AUTHORING_YAML, writeAuthoringProject } from "../domain/authoring-fixture.js";
import { call, callError, levels, useCatDoc } from "./helpers.js";

const { tempDir, connect } = useCatDoc();

const fileOf = (root: string) => readFile(join(root, ".catdoc", "category.yaml"), "utf8");

describe("catdoc_edit", () => {
  it("authors a category and a functor into it entry by entry, applying the only candidate image of each arrow", async () => {
    const root = await writeAuthoringProject(await tempDir());
    const client = await connect(root);
    await call(client, "catdoc_edit", { op: "add", kind: "category", id: "design", fields: { name: "Design" } });
    for (const id of ["des-a", "des-b"]) {
      await call(client, "catdoc_edit", { op: "add", kind: "object", id, fields: { category: "design", title: id, domain: "design" } });
    }
    await call(client, "catdoc_edit", {
      op: "add",
      kind: "morphism",
      id: "d1",
      fields: { category: "design", name: "refines", source: "des-a", target: "des-b" },
    });
    const functor = await call(client, "catdoc_edit", {
      op: "add",
      kind: "functor",
      id: "D",
      fields: {
        name: "designed by",
        sourceCategory: "reqs",
        targetCategory: "design",
        objectMapping: { "req-a": "des-a", "req-b": "des-b" },
      },
      response_level: "standard",
    });
    // The functor is partial: its unmapped morphisms are gaps, saved and listed, each with its candidate.
    expect(functor).toMatchObject({ written: true, counts: { changes: 1, violations: 0, gaps: 3 } });
    expect(functor["gaps"]).toContainEqual({
      code: "FUNCTOR_UNMAPPED_MORPHISM",
      message: "Functor 'D' does not map morphism 'refines' of category 'reqs'; candidate image: 'd1'",
    });
    const validated = await call(client, "catdoc_validate_functor", { functorId: "D" });
    expect(validated["errors"]).toContainEqual(expect.objectContaining({ morphismId: "refines", candidateIds: ["d1"] }));
    for (const from of ["id-req-a", "id-req-b", "refines"]) {
      expect(await call(client, "catdoc_edit", { op: "map", kind: "functor", id: "D", from })).toMatchObject({ written: true });
    }
    expect(await call(client, "catdoc_validate_functor", { functorId: "D" })).toMatchObject({ isValid: true });
    expect(await fileOf(root)).toContain(
      "    morphismMapping:\n      id-req-a: id-des-a\n      id-req-b: id-des-b\n      refines: d1\nnaturalTransformations: []\n",
    );
  });

  it("refuses with coded errors and a suggestion, writing nothing: unknown id, rename onto an id, a law violation (then forced), a non-candidate", async () => {
    const root = await writeAuthoringProject(await tempDir());
    const client = await connect(root);
    const unknown = await callError(client, "catdoc_edit", { op: "rename", kind: "object", id: "nope", newId: "x" });
    expect(unknown).toMatchObject({ code: "NOT_FOUND", details: { id: "nope" } });
    expect(unknown.suggestion).toContain("catdoc_list_objects");
    expect(await callError(client, "catdoc_edit", { op: "rename", kind: "morphism", id: "k1", newId: "k2" })).toMatchObject({
      code: "CONFLICT",
    });
    const law = await callError(client, "catdoc_edit", { op: "map", kind: "functor", id: "T", from: "req-b", to: "test-a" });
    expect(law).toMatchObject({ code: "CONFLICT", details: { reason: "law-violation", totalViolations: 1 } });
    expect(law.suggestion).toContain("force");
    const candidate = await callError(client, "catdoc_edit", { op: "map", kind: "functor", id: "T", from: "refines", to: "id-test-b" });
    expect(candidate).toMatchObject({ code: "INVALID_INPUT", details: { ids: ["k1", "k2"] } });
    const fields = await callError(client, "catdoc_edit", { op: "add", kind: "category", id: "c", fields: { title: "x" } });
    expect(fields).toMatchObject({ code: "INVALID_INPUT" });
    expect(await fileOf(root)).toBe(AUTHORING_YAML);

    const forced = await call(client, "catdoc_edit", {
      op: "map",
      kind: "functor",
      id: "T",
      from: "req-b",
      to: "test-a",
      force: true,
      response_level: "standard",
    });
    expect(forced).toMatchObject({ written: true, counts: { violations: 1 }, violations: [{ code: "FUNCTOR_MORPHISM_MISMATCH" }] });
  });

  it("answers at three nested levels: counts and ids, then the change lines and gaps, then the versions", async () => {
    const client = await connect(await writeAuthoringProject(await tempDir()));
    const args = { op: "rename", kind: "object", id: "req-a", newId: "req-login", dryRun: true };
    const answers = await levels(client, "catdoc_edit", args);
    expect(answers.minimal).toEqual({
      written: false,
      dryRun: true,
      counts: { changes: 2, violations: 0, gaps: 0, errorsAfter: 1 },
      ids: ["req-a", "req-login", "reqs", "id-req-a", "id-req-login"],
    });
    expect(answers.standard["changes"]).toEqual([
      "rename object 'req-a' → 'req-login' in category 'reqs'",
      "rename morphism 'id-req-a' → 'id-req-login' in category 'reqs'",
    ]);
    expect(answers.full["version"]).toMatch(/^sha256:|^[0-9a-f]{64}$/);
  });
});
