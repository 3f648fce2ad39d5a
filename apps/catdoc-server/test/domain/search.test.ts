/** Ranked full-text search (MiniSearch, BM25+) over objects and their documents. */
import { describe, expect, it } from "vitest";
import { CatDocStore, ObjectSearchIndex, loadProject, tokenize } from "../../src/domain/index.js";
import { copyExample, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

describe("search", () => {
  it("ranks documents by content the titles do not contain (math-docs, docs/*.md by frontmatter id)", async () => {
    const project = await loadProject(await copyExample(await tempDir(), "math-docs"));
    const result = await project.search("homomorphism");
    expect(result.hits.map((h) => h.id)).toEqual(["groups", "rings"]);
    expect(result.hits[0]).toMatchObject({
      title: "Group Theory",
      domain: "mathematics",
      categoryId: "algebra",
      documentPath: "docs/groups.md",
    });
    expect(result.hits[0]?.fields).toContain("content");
    const [first, second] = result.hits;
    expect(first!.score).toBeGreaterThan(second!.score);
    expect(second!.score).toBeGreaterThan(0);
  });

  it("weighs titles above bodies and finds metadata and ids", async () => {
    const project = await loadProject(await copyExample(await tempDir(), "math-docs"));
    expect((await project.search("field")).hits[0]?.id).toBe("fields");
    expect((await project.search("galois")).hits.map((h) => h.id)).toEqual(["fields"]);
    expect((await project.search("advanced")).hits.map((h) => h.id).sort()).toEqual(["fields", "manifolds", "modules"]);
    expect((await project.search("topological")).hits[0]?.id).toBe("topological-spaces");
  });

  it("filters by domain and limits the hits, reporting the total", async () => {
    const project = await loadProject(await copyExample(await tempDir(), "dev-project"));
    const all = await project.search("認証");
    expect(all.hits[0]?.title).toContain("認証");
    expect(all.total).toBeGreaterThan(3);
    const filtered = await project.search("認証", { domain: "requirements" });
    expect(filtered.hits.every((h) => h.domain === "requirements")).toBe(true);
    expect(filtered.hits[0]?.id).toBe("req-auth-system");
    const limited = await project.search("認証", { limit: 2 });
    expect(limited.hits).toHaveLength(2);
    expect(limited.total).toBe(all.total);
    expect((await project.search("認証", { categoryId: "design" })).hits.map((h) => h.categoryId)).toEqual(["design", "design"]);
  });

  it("rejects an empty query and a bad limit with INVALID_INPUT", () => {
    const index = ObjectSearchIndex.build({ categories: [], functors: [], naturalTransformations: [] });
    expect(() => index.search("  ")).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() => index.search("x", { limit: 0 })).toThrow(/limit must be an integer/);
  });

  it("splits words on punctuation and CJK runs into character pairs", () => {
    expect(tokenize("set-to-group, Ring!")).toEqual(["set", "to", "group", "Ring"]);
    expect(tokenize("認証API仕様")).toEqual(["認証", "API", "仕様"]);
    expect(tokenize("ユーザー管理")).toEqual(["ユー", "ーザ", "ザー", "ー管", "管理"]);
  });

  it("builds the index once per version of category.yaml", async () => {
    const store = new CatDocStore(await copyExample(await tempDir(), "math-docs"));
    const first = await store.load();
    const index = await first.searchIndex();
    expect(await store.load()).toBe(first);
    expect(await (await store.load()).searchIndex()).toBe(index);

    await store.addObject("algebra", { id: "lattices", title: "Lattice Theory", domain: "mathematics", content: "Meets and joins." });
    const second = await store.load();
    expect(second).not.toBe(first);
    expect(second.version).not.toBe(first.version);
    expect((await second.search("lattice")).hits.map((h) => h.id)).toEqual(["lattices"]);
    expect((await first.search("lattice")).hits).toEqual([]);
  });
});
