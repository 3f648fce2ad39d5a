/**
 * Change impact in the domain: links and their stamps, suspect links after a document changes,
 * the spread along compositions and through functors, and reviews written through the store —
 * with bad requests writing nothing (the bytes of category.yaml compared).
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CatDocStore, indexProject, loadProject } from "../../src/domain/index.js";
import type { CatDocModel } from "../../src/domain/index.js";
import {
  currentDocumentHashes,
  findSuspectLinks,
  modelDocumentHashes,
  projectImpact,
  projectLinks,
  reviewLinks,
} from "../../src/domain/change-impact/index.js";
import type { ChangeImpact } from "../../src/domain/change-impact/index.js";
import { categoryFile, editDocument, writeTraceProject } from "./change-impact-fixture.js";
import { useTempDirs, validModel } from "./helpers.js";

const tempDir = useTempDirs();

/** What `catdoc validate` computes: the documents at the stamped links' ends read now. */
async function impactOf(root: string): Promise<ChangeImpact> {
  return projectImpact(await loadProject(root));
}

const suspectIds = (impact: ChangeImpact) => impact.suspect.map((s) => s.link.id).sort();

/** A project reviewed once, then req-session's document edited. */
async function changedProject(): Promise<{ root: string; store: CatDocStore }> {
  const root = await writeTraceProject(await tempDir());
  const store = new CatDocStore(root);
  await reviewLinks(store, { all: true });
  await editDocument(root, "docs/req-session.md");
  return { root, store };
}

describe("links", () => {
  it("are the non-identity morphisms, the functors' object mappings and the natural transformations' components", () => {
    const links = projectLinks(indexProject(validModel()));
    expect(links.map((l) => l.id)).toEqual([
      "f",
      "g",
      "h",
      "p",
      "q",
      "r",
      "F/a",
      "F/b",
      "F/c",
      "G/a",
      "G/b",
      "G/c",
      "eta/a",
      "eta/b",
      "eta/c",
    ]);
    expect(links.find((l) => l.id === "F/b")).toMatchObject({ kind: "mapping", functorId: "F", source: "b", target: "y" });
    expect(links.find((l) => l.id === "eta/c")).toMatchObject({ kind: "component", morphismId: "id-z", source: "z", target: "z" });
  });

  it("a natural transformation's component is suspect when its morphism is or when either functor's mapping of its object is", () => {
    const model: CatDocModel = validModel();
    const hashes = modelDocumentHashes(model);
    const stamp = (source: string, target: string) => ({ source: hashes.get(source)!.hash, target: hashes.get(target)!.hash });
    model.functors[0]!.reviewed = { a: { ...stamp("a", "x"), source: "sha256:0000000000000000" } };
    model.naturalTransformations[0]!.reviewed = { a: stamp("x", "x"), b: stamp("y", "y") };
    const impact = findSuspectLinks(indexProject(model), hashes);
    expect(impact.suspect.map((s) => [s.link.id, s.via?.rule ?? "direct"])).toEqual([
      ["F/a", "direct"],
      ["eta/a", "natural-transformation"],
    ]);
  });
});

describe("suspect links", () => {
  it("a project without stamps (from before reviews) has no suspect link: every link is unreviewed", async () => {
    const root = await writeTraceProject(await tempDir());
    await editDocument(root, "docs/req-login.md");
    const impact = await impactOf(root);
    expect(impact).toMatchObject({ links: 15, reviewed: 0, suspect: [], changedDocuments: [] });
    expect(impact.unreviewed).toHaveLength(15);
  });

  it("review --all stamps every link in flow style, keeping comments and key order; then nothing is suspect", async () => {
    const root = await writeTraceProject(await tempDir());
    const before = await readFile(categoryFile(root), "utf8");
    const outcome = await reviewLinks(new CatDocStore(root), { all: true });
    expect(outcome).toMatchObject({ written: true, cleared: [] });
    expect(outcome.reviewed).toHaveLength(15);
    expect(outcome.reviewed.every((r) => r.was === "unreviewed")).toBe(true);
    const after = await readFile(categoryFile(root), "utf8");
    expect(after.startsWith("# Traceability: requirements → design → tests\n")).toBe(true);
    expect(after).toContain("      - id: req-login-session # login needs a session\n");
    expect(after).toMatch(/ {8}target: req-session\n {8}reviewed: \{source: "?sha256:[0-9a-f]{16}"?, target: "?sha256:[0-9a-f]{16}"?\}\n/);
    expect(after).toMatch(/ {4}reviewed:\n {6}req-login: \{source: "?sha256:[0-9a-f]{16}"?, target: "?sha256:[0-9a-f]{16}"?\}\n/);
    // Nothing but the stamps was added: the file without its reviewed lines is the file before.
    const withoutStamps = after
      .split("\n")
      .filter((line) => !/^\s+(reviewed:|[\w-]+: \{source: )/.test(line))
      .join("\n");
    expect(withoutStamps).toBe(before);
    const impact = await impactOf(root);
    expect(impact).toMatchObject({ links: 15, reviewed: 15, unreviewed: [], suspect: [] });
    // The stamp of a file document is the hash `catdoc import` records (sha256 of its bytes).
    const hashes = await currentDocumentHashes(await loadProject(root));
    expect(hashes.get("req-login")).toMatchObject({ path: "docs/req-login.md", from: "file" });
    expect(hashes.get("design-login")).toMatchObject({ path: "docs/design/login.md", from: "file" });
    expect(hashes.get("test-login")).toMatchObject({ path: null, from: "inline" });

    const again = await reviewLinks(new CatDocStore(root), { all: true });
    expect(again).toMatchObject({ written: false, reviewed: [] });
  });

  it("an edited requirement makes its links suspect, naming link and document, and the suspicion spreads to design and tests", async () => {
    const { root } = await changedProject();
    const impact = await impactOf(root);
    const direct = impact.suspect.filter((s) => s.changed.length > 0);
    expect(direct.map((s) => s.link.id).sort()).toEqual(["designs/req-session", "req-login-session", "req-session-audit"]);
    expect(direct.find((s) => s.link.id === "req-login-session")?.changed).toEqual([
      expect.objectContaining({ objectId: "req-session", end: "target" }),
    ]);
    const through = new Map(impact.suspect.filter((s) => s.via !== undefined).map((s) => [s.link.id, s]));
    // Composition: req-login-audit may be req-session-audit ∘ req-login-session.
    expect(through.get("req-login-audit")?.via).toEqual({ linkId: "req-login-session", rule: "composition" });
    // Functors: the design arrows that realise the suspect requirement arrows, the test mapping of the design.
    expect(through.get("design-login-session")?.via).toEqual({ linkId: "req-login-session", rule: "functor" });
    expect(through.get("tests/design-session")?.via).toEqual({ linkId: "designs/req-session", rule: "functor" });
    expect(through.get("test-login-session")?.via).toEqual({ linkId: "design-login-session", rule: "functor" });
    for (const suspect of impact.suspect) expect(suspect.documents).toEqual(["req-session"]);
    // Links away from req-session are not suspect.
    expect(suspectIds(impact)).not.toContain("designs/req-login");
    expect(suspectIds(impact)).not.toContain("tests/design-login");
    expect(impact.changedDocuments).toEqual([
      expect.objectContaining({
        objectId: "req-session",
        path: "docs/req-session.md",
        directLinks: ["req-login-session", "req-session-audit", "designs/req-session"],
      }),
    ]);
    expect(impact.changedDocuments[0]?.reviewed).toHaveLength(1);
    expect(impact.changedDocuments[0]?.reviewed[0]).not.toBe(impact.changedDocuments[0]?.current);
  });

  it("a deleted document reads as a change", async () => {
    const root = await writeTraceProject(await tempDir());
    await reviewLinks(new CatDocStore(root), { all: true });
    await (await import("node:fs/promises")).rm(`${root}/docs/req-audit.md`);
    expect(suspectIds(await impactOf(root))).toContain("req-session-audit");
  });
});

describe("review", () => {
  it("clears the links it stamps and those suspect only through them; a composite stays suspect through its other factor", async () => {
    const { root, store } = await changedProject();
    const first = await reviewLinks(store, { ids: ["req-login-session"] });
    expect(first.reviewed).toEqual([expect.objectContaining({ id: "req-login-session", was: "suspect" })]);
    let impact = await impactOf(root);
    expect(suspectIds(impact)).not.toContain("req-login-session");
    expect(impact.suspect.find((s) => s.link.id === "req-login-audit")?.via).toEqual({ linkId: "req-session-audit", rule: "composition" });

    const rest = await reviewLinks(store, { ids: ["req-session-audit", "designs/req-session"] });
    expect(rest.cleared).toEqual(expect.arrayContaining(["req-login-audit", "tests/design-session", "test-session-audit"]));
    impact = await impactOf(root);
    expect(impact.suspect).toEqual([]);
  });

  it("bad requests write nothing: an unknown id, a link that is not suspect, a link suspect only through another", async () => {
    const { root, store } = await changedProject();
    const bytes = await readFile(categoryFile(root));
    const refused = async (ids: string[]) => {
      const error = await reviewLinks(store, { ids }).then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string; details: Record<string, unknown> },
      );
      expect(await readFile(categoryFile(root))).toEqual(bytes);
      return error;
    };
    expect(await refused(["req-login-session", "nope"])).toMatchObject({ code: "NOT_FOUND", details: { kind: "link", id: "nope" } });
    expect(await refused(["designs/nope"])).toMatchObject({ code: "NOT_FOUND" });
    expect(await refused(["req-login-session", "designs/req-login"])).toMatchObject({
      code: "CONFLICT",
      details: { id: "designs/req-login", reason: "not-suspect" },
    });
    const through = await refused(["tests/design-session"]);
    expect(through).toMatchObject({ code: "CONFLICT", details: { reason: "suspect-through", via: "designs/req-session" } });
    expect(through?.message).toContain("designs/req-session");
    expect(suspectIds(await impactOf(root))).toContain("req-login-session");
  });

  it("a link never reviewed can be reviewed (its baseline) while the others stay unreviewed", async () => {
    const root = await writeTraceProject(await tempDir());
    const outcome = await reviewLinks(new CatDocStore(root), { ids: ["tests/design-audit"] });
    expect(outcome.reviewed).toEqual([expect.objectContaining({ id: "tests/design-audit", was: "unreviewed" })]);
    const impact = await impactOf(root);
    expect(impact).toMatchObject({ reviewed: 1, suspect: [] });
    expect(impact.unreviewed).toHaveLength(14);
  });
});
