/** Authoring (domain/authoring/apply-edit.ts): every kind added, updated, removed and renamed, validated before it is saved. */
import { describe, expect, it } from "vitest";
import { applyEdit } from "../../src/domain/authoring/apply-edit.js";
import type { EditRequest } from "../../src/domain/authoring/edit-request.js";
import { CatDocStore } from "../../src/domain/store/store.js";
import { validateProject } from "../../src/domain/validate/validate.js";
import { AUTHORING_YAML, categoryText, section, writeAuthoringProject } from "./authoring-fixture.js";
import { useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

async function project() {
  const root = await writeAuthoringProject(await tempDir());
  const store = new CatDocStore(root, { parse: { cache: false } });
  const edit = (request: EditRequest, options: { force?: boolean; dryRun?: boolean } = {}) => applyEdit(store, request, options);
  const failure = (request: EditRequest, options: { force?: boolean } = {}) =>
    edit(request, options).then(
      () => {
        throw new Error(`expected ${request.op} ${request.kind} ${request.id} to fail`);
      },
      (error: { code: string; message: string; details: Record<string, unknown> }) => error,
    );
  return { root, store, edit, failure, text: () => categoryText(root) };
}

const REQS = ["categories:", "  - id: tests"] as const;
const TESTS = ["  - id: tests", "functors:"] as const;

describe("authoring: add, update, remove of each kind", () => {
  it("a category, an object and a morphism, keeping comments, unknown keys and the untouched parts byte for byte", async () => {
    const { edit, text } = await project();
    const reqs = section(AUTHORING_YAML, ...REQS);

    const added = await edit({ op: "add", kind: "object", id: "test-c", fields: { category: "tests", title: "Test C", domain: "tests" } });
    expect(added).toMatchObject({ written: true, ids: ["test-c", "tests", "id-test-c"], violations: [] });
    expect(added.changes).toEqual(["add object 'test-c' to category 'tests'", "add identity 'id-test-c' to category 'tests'"]);
    expect(section(await text(), ...REQS)).toBe(reqs);
    expect(await text()).toContain("# Authoring fixture: requirements and their tests\n");
    expect(await text()).toContain("      - id: test-c\n        title: Test C\n        domain: tests\n");

    await edit({
      op: "add",
      kind: "morphism",
      id: "k3",
      fields: { category: "tests", name: "runs after", source: "test-b", target: "test-c" },
    });
    await edit({ op: "update", kind: "morphism", id: "k3", fields: { name: "runs before", metadata: { kind: "order" } } });
    expect(await text()).toContain(
      "      - id: k3\n        name: runs before\n        source: test-b\n        target: test-c\n        metadata:\n          kind: order\n",
    );
    await edit({ op: "update", kind: "object", id: "req-a", fields: { title: "Requirement A, revised" } });
    expect(await text()).toContain(
      "      - id: req-a\n        title: Requirement A, revised\n        domain: requirements\n        owner: alice # an unknown key, kept\n",
    );

    await edit({ op: "add", kind: "category", id: "design", fields: { name: "Design" } });
    await edit({ op: "update", kind: "category", id: "design", fields: { name: "Designs" } });
    expect(await text()).toContain("  - id: design\n    name: Designs\n    objects: []\n    morphisms: []\n");
    expect((await edit({ op: "remove", kind: "category", id: "design" })).changes).toEqual(["remove category 'design'"]);

    await edit({ op: "remove", kind: "morphism", id: "k3" });
    await edit({ op: "remove", kind: "object", id: "test-c" });
    expect(await text()).toBe(AUTHORING_YAML.replace("title: Requirement A\n", "title: Requirement A, revised\n"));
  });

  it("a functor and its mapping entries, a natural transformation and its components", async () => {
    const { edit, text } = await project();
    const before = section(AUTHORING_YAML, "categories:", "functors:");
    await edit({ op: "add", kind: "functor", id: "S", fields: { name: "same", sourceCategory: "tests", targetCategory: "tests" } });
    const gaps = await edit({
      op: "update",
      kind: "functor",
      id: "S",
      fields: { objectMapping: { "test-a": "test-a", "test-b": "test-b" } },
    });
    // Mapping objects one by one leaves gaps (unmapped morphisms), which never block authoring.
    expect(gaps).toMatchObject({ written: true, violations: [] });
    for (const [from, to] of [
      ["id-test-a", "id-test-a"],
      ["id-test-b", "id-test-b"],
      ["k1", "k1"],
      ["k2", "k2"],
    ]) {
      await edit({ op: "map", kind: "functor", id: "S", from, to });
    }
    await edit({ op: "add", kind: "nt", id: "eta", fields: { name: "η", sourceFunctor: "S", targetFunctor: "S" } });
    await edit({ op: "map", kind: "nt", id: "eta", from: "test-a", to: "id-test-a" });
    await edit({ op: "update", kind: "nt", id: "eta", fields: { name: "eta", components: { "test-b": "id-test-b" } } });
    const saved = await text();
    expect(section(saved, "categories:", "functors:")).toBe(before);
    expect(saved).toContain(
      "  - id: S\n    name: same\n    sourceCategory: tests\n    targetCategory: tests\n    objectMapping:\n      test-a: test-a\n      test-b: test-b\n    morphismMapping:\n      id-test-a: id-test-a\n",
    );
    expect(saved).toContain(
      "naturalTransformations:\n  - id: eta\n    name: eta\n    sourceFunctor: S\n    targetFunctor: S\n    components:\n      test-a: id-test-a\n      test-b: id-test-b\n",
    );

    await edit({ op: "remove", kind: "nt", id: "eta", from: "test-b" });
    expect(await text()).toContain("    components:\n      test-a: id-test-a\n");
    expect(await text()).not.toMatch(/^ {6}test-b: id-test-b$/m);
    const refused = await edit({ op: "remove", kind: "functor", id: "S" }).catch((error: { code: string; details: unknown }) => error);
    expect(refused).toMatchObject({ code: "CONFLICT", details: { naturalTransformations: ["eta"] } });
    const removed = await edit({ op: "remove", kind: "functor", id: "S", cascade: true });
    expect(removed.changes).toEqual(["remove natural transformation 'eta'", "remove functor 'S'"]);
    expect(await text()).toBe(AUTHORING_YAML);
  });

  it("a dry run reports the changes and writes nothing", async () => {
    const { edit, text } = await project();
    const outcome = await edit({ op: "add", kind: "category", id: "design", fields: { name: "Design" } }, { dryRun: true });
    expect(outcome).toMatchObject({ written: false, dryRun: true, changes: ["add category 'design'"] });
    expect(await text()).toBe(AUTHORING_YAML);
  });
});

describe("authoring: rename", () => {
  it("renames an object everywhere: endpoints, its identity id-<object> and its name, mappings, components and review stamps", async () => {
    const { store, edit, text } = await project();
    await edit({ op: "add", kind: "functor", id: "S", fields: { name: "same", sourceCategory: "reqs", targetCategory: "reqs" } });
    await edit({ op: "update", kind: "functor", id: "S", fields: { objectMapping: { "req-a": "req-a", "req-b": "req-b" } } });
    await edit({
      op: "add",
      kind: "nt",
      id: "eta",
      fields: { name: "η", sourceFunctor: "S", targetFunctor: "S", components: { "req-a": "id-req-a" } },
    });
    await store.edit((editor) =>
      editor.setReviewStamp(
        { kind: "component", naturalTransformationId: "eta", objectId: "req-a" },
        { source: "sha256:cc", target: "sha256:dd" },
      ),
    );
    const outcome = await edit({ op: "rename", kind: "object", id: "req-a", newId: "req-login" });
    expect(outcome.changes).toEqual([
      "rename object 'req-a' → 'req-login' in category 'reqs'",
      "rename morphism 'id-req-a' → 'id-req-login' in category 'reqs'",
    ]);
    const saved = await text();
    expect(saved).not.toMatch(/req-a\b/);
    expect(saved).toContain(
      "      - id: req-login\n        title: Requirement A\n        domain: requirements\n        owner: alice # an unknown key, kept\n",
    );
    expect(saved).toContain("      - id: id-req-login\n        name: id_req-login\n        source: req-login\n        target: req-login\n");
    expect(saved).toContain("      - id: refines # A is refined by B\n        name: refines\n        source: req-login\n");
    expect(saved).toContain(
      "    objectMapping:\n      req-login: test-a\n      req-b: test-b\n    morphismMapping:\n      id-req-login: id-test-a\n",
    );
    expect(saved).toContain('    reviewed:\n      req-login: {source: "sha256:aa", target: "sha256:bb"}\n');
    expect(saved).toContain("    objectMapping:\n      req-login: req-login\n      req-b: req-b\n");
    expect(saved).toContain("    components:\n      req-login: id-req-login\n");
    expect(saved).toContain("    reviewed:\n      req-login: {source: sha256:cc, target: sha256:dd}\n");
    expect(section(saved, ...TESTS)).toBe(section(AUTHORING_YAML, ...TESTS));
    // A rename keeps the laws as they were: the same project validates the same, renamed.
    expect(outcome.violations).toEqual([]);
  });

  it("renames a morphism in mappings and composites, a category in functors, a functor in natural transformations", async () => {
    const { edit, text } = await project();
    await edit({ op: "map", kind: "functor", id: "T", from: "refines", to: "k1" });
    await edit({ op: "add", kind: "object", id: "test-c", fields: { category: "tests", title: "Test C", domain: "tests" } });
    await edit({ op: "add", kind: "morphism", id: "k3", fields: { category: "tests", name: "then", source: "test-b", target: "test-c" } });
    const composite = { category: "tests", name: "both", source: "test-a", target: "test-c", composite: ["k1", "k3"] };
    await edit({ op: "add", kind: "morphism", id: "k4", fields: composite });
    expect(await text()).toContain(
      "      - id: k4\n        name: both\n        source: test-a\n        target: test-c\n        composite: [k1, k3]\n",
    );
    await edit({ op: "rename", kind: "morphism", id: "k1", newId: "checks" });
    expect(await text()).toContain("        composite: [checks, k3]\n");
    await edit({ op: "rename", kind: "category", id: "tests", newId: "test-suite" });
    await edit({ op: "add", kind: "nt", id: "eta", fields: { name: "η", sourceFunctor: "T", targetFunctor: "T" } });
    await edit({ op: "rename", kind: "functor", id: "T", newId: "tested-by" });
    await edit({ op: "rename", kind: "nt", id: "eta", newId: "same" });
    const saved = await text();
    expect(saved).toContain("      - id: checks\n        name: checks\n");
    expect(saved).toContain("      refines: checks\n");
    expect(saved).toContain("  - id: test-suite\n    name: Tests\n");
    expect(saved).toContain(
      "  - id: tested-by # tested by\n    name: tested by\n    sourceCategory: reqs\n    targetCategory: test-suite\n",
    );
    expect(saved).toContain("  - id: same\n    name: η\n    sourceFunctor: tested-by\n    targetFunctor: tested-by\n");
  });

  it("onto an existing id is CONFLICT, from an unknown id NOT_FOUND; the file stays byte for byte", async () => {
    const { failure, text } = await project();
    const cases: [EditRequest, string][] = [
      [{ op: "rename", kind: "object", id: "req-a", newId: "test-a" }, "CONFLICT"],
      [{ op: "rename", kind: "morphism", id: "k1", newId: "k2" }, "CONFLICT"],
      [{ op: "rename", kind: "category", id: "reqs", newId: "tests" }, "CONFLICT"],
      [{ op: "rename", kind: "object", id: "nope", newId: "other" }, "NOT_FOUND"],
      [{ op: "rename", kind: "functor", id: "nope", newId: "other" }, "NOT_FOUND"],
      [{ op: "update", kind: "morphism", id: "nope", fields: { name: "x" } }, "NOT_FOUND"],
      [{ op: "remove", kind: "nt", id: "nope" }, "NOT_FOUND"],
      [{ op: "add", kind: "object", id: "req-a", fields: { category: "tests", title: "t", domain: "d" } }, "CONFLICT"],
      [{ op: "add", kind: "object", id: "x", fields: { category: "tests", title: "t" } }, "INVALID_INPUT"],
      [{ op: "update", kind: "object", id: "req-a", fields: { colour: "red" } }, "INVALID_INPUT"],
      [{ op: "remove", kind: "object", id: "req-a", from: "req-b" }, "INVALID_INPUT"],
      [{ op: "add", kind: "category", id: "c", fields: { name: "C" }, newId: "d" }, "INVALID_INPUT"],
    ];
    for (const [request, code] of cases) {
      expect(await failure(request), JSON.stringify(request)).toMatchObject({ code });
      expect(await text()).toBe(AUTHORING_YAML);
    }
  });

  it("renames an object whose identity id would be taken: CONFLICT naming it, nothing written", async () => {
    const { edit, failure, text } = await project();
    await edit({
      op: "add",
      kind: "morphism",
      id: "id-req-z",
      fields: { category: "tests", name: "stray", source: "test-a", target: "test-b" },
    });
    const saved = await text();
    expect(await failure({ op: "rename", kind: "object", id: "req-a", newId: "req-z" })).toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("'id-req-z'"),
    });
    expect(await text()).toBe(saved);
  });
});

describe("authoring: validated before it is saved", () => {
  it("refuses an edit that breaks a law with CONFLICT listing it, saves it with force; older errors block nothing else", async () => {
    const { edit, failure, text } = await project();
    // F(req-b) = test-a while F(id-req-b) = id-test-b: test-b → test-b, no longer F(req-b) → F(req-b).
    const breaking: EditRequest = { op: "map", kind: "functor", id: "T", from: "req-b", to: "test-a" };
    const refused = await failure(breaking);
    expect(refused).toMatchObject({ code: "CONFLICT", details: { reason: "law-violation" } });
    expect(refused.message).toContain("FUNCTOR_MORPHISM_MISMATCH");
    expect((refused.details["violations"] as { code: string }[]).map((v) => v.code)).toContain("FUNCTOR_MORPHISM_MISMATCH");
    expect(await text()).toBe(AUTHORING_YAML);

    const forced = await edit(breaking, { force: true });
    expect(forced.written).toBe(true);
    expect(forced.violations.map((v) => v.code)).toContain("FUNCTOR_MORPHISM_MISMATCH");
    expect(await text()).toContain("      req-b: test-a\n");
    // The mismatch is there now; an unrelated edit is not blocked by it.
    expect(await edit({ op: "add", kind: "category", id: "design", fields: { name: "Design" } })).toMatchObject({
      written: true,
      violations: [],
    });
  });

  it("a morphism whose endpoint moves off its functor image is refused, the same edit accepted with force", async () => {
    const { edit, failure } = await project();
    await edit({ op: "map", kind: "functor", id: "T", from: "refines", to: "k1" });
    const moved: EditRequest = { op: "update", kind: "morphism", id: "k1", fields: { target: "test-a" } };
    expect(await failure(moved)).toMatchObject({ code: "CONFLICT" });
    expect(await edit(moved, { force: true })).toMatchObject({ written: true, changes: ["update morphism 'k1' (target)"] });
  });
});

describe("authoring: unmapped morphisms and their candidate images", () => {
  it("validate names the candidates; map applies one, refuses a non-candidate with the list, and takes the only one when to is omitted", async () => {
    const { store, edit, failure, text } = await project();
    const unmapped = validateProject((await store.load()).index).errors.find((e) => e.code === "FUNCTOR_UNMAPPED_MORPHISM");
    expect(unmapped).toMatchObject({ functorId: "T", morphismId: "refines", candidateIds: ["k1", "k2"] });
    expect(unmapped?.message).toBe("Functor 'T' does not map morphism 'refines' of category 'reqs'; candidate images: 'k1', 'k2'");

    const wrong = await failure({ op: "map", kind: "functor", id: "T", from: "refines", to: "id-test-a" });
    expect(wrong).toMatchObject({ code: "INVALID_INPUT", details: { kind: "candidates", ids: ["k1", "k2"] } });
    expect(wrong.message).toContain("the candidates are 'k1', 'k2'");
    const ambiguous = await failure({ op: "map", kind: "functor", id: "T", from: "refines" });
    expect(ambiguous.message).toContain("2 candidate images under 'T' ('k1', 'k2')");
    expect(await text()).toBe(AUTHORING_YAML);

    await edit({ op: "remove", kind: "morphism", id: "k2" });
    const applied = await edit({ op: "map", kind: "functor", id: "T", from: "refines" });
    expect(applied.changes).toEqual(["map 'refines' → 'k1' in functor 'T'"]);
    expect(await text()).toContain("      id-req-b: id-test-b\n      refines: k1\n    reviewed:");
    expect(validateProject((await store.load()).index).errors).toEqual([]);
  });

  it("an identity's only candidate is the identity of the image; an unmapped endpoint is named", async () => {
    const { store, edit, failure } = await project();
    await edit({ op: "remove", kind: "functor", id: "T", from: "id-req-a" });
    const errors = validateProject((await store.load()).index).errors.filter((e) => e.code === "FUNCTOR_UNMAPPED_MORPHISM");
    expect(errors.find((e) => e.morphismId === "id-req-a")).toMatchObject({ candidateIds: ["id-test-a"] });
    await edit({ op: "remove", kind: "functor", id: "T", from: "req-b" });
    const noEnd = validateProject((await store.load()).index).errors.find((e) => e.morphismId === "refines");
    expect(noEnd?.message).toContain("; map object 'req-b' first");
    expect(await failure({ op: "map", kind: "functor", id: "T", from: "refines", to: "k1" })).toMatchObject({
      code: "INVALID_INPUT",
      details: { objectIds: ["req-b"] },
    });
  });
});
