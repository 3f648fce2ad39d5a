/** catdoc_review and the SUSPECT_LINK warnings of catdoc_validate, through the real SDK client in-process. */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { categoryFile, editDocument, writeTraceProject } from "../domain/change-impact-fixture.js";
import { assertLevelsNested } from "@local-mcp/core/testing";
import { call, callError, useCatDoc } from "./helpers.js";
import type { Body, Level } from "./helpers.js";

const { tempDir, connect } = useCatDoc();

describe("catdoc_review", () => {
  it("baselines with all: true, reports a changed requirement's links in catdoc_validate, and clears them by id", async () => {
    const root = await writeTraceProject(await tempDir());
    const client = await connect(root);
    const baseline = await call(client, "catdoc_review", { all: true });
    expect(baseline).toMatchObject({ written: true, counts: { reviewed: 15, cleared: 0 }, truncated: false });

    await editDocument(root, "docs/req-session.md");
    const validated = await call(client, "catdoc_validate", { response_level: "standard" });
    expect(validated).toMatchObject({ isValid: true });
    const warnings = validated["warnings"] as { code: string; linkId?: string; documentIds?: string[] }[];
    expect(warnings).toContainEqual(
      expect.objectContaining({ code: "SUSPECT_LINK", linkId: "designs/req-session", documentIds: ["req-session"] }),
    );
    expect((validated["countsByCode"] as Record<string, number>)["SUSPECT_LINK"]).toBe(warnings.length);

    expect(await call(client, "catdoc_review", { ids: ["req-login-session"] })).toMatchObject({ reviewed: ["req-login-session"] });
    const reviewed = await call(client, "catdoc_review", { ids: ["req-session-audit", "designs/req-session"], response_level: "full" });
    expect(reviewed).toMatchObject({ written: true, reviewed: ["req-session-audit", "designs/req-session"] });
    expect(reviewed["cleared"]).toEqual(expect.arrayContaining(["tests/design-session", "req-login-audit"]));
    expect((reviewed["links"] as { stamp?: unknown }[])[0]?.stamp).toMatchObject({ source: expect.stringMatching(/^sha256:/) });
    const clean = await call(client, "catdoc_validate", { response_level: "standard" });
    expect(clean["countsByCode"]).toEqual({});
  });

  it("an unknown id is NOT_FOUND, a clean link CONFLICT, ids with all INVALID_INPUT: each with a suggestion, writing nothing", async () => {
    const root = await writeTraceProject(await tempDir());
    const client = await connect(root);
    await call(client, "catdoc_review", { all: true });
    await editDocument(root, "docs/req-login.md");
    const bytes = await readFile(categoryFile(root));
    const unknown = await callError(client, "catdoc_review", { ids: ["req-login-session", "nope"] });
    expect(unknown).toMatchObject({ code: "NOT_FOUND", details: { id: "nope" } });
    expect(unknown.suggestion).toContain("catdoc_validate");
    const clean = await callError(client, "catdoc_review", { ids: ["req-session-audit"] });
    expect(clean).toMatchObject({ code: "CONFLICT", details: { reason: "not-suspect" } });
    const through = await callError(client, "catdoc_review", { ids: ["tests/design-login"] });
    expect(through).toMatchObject({ code: "CONFLICT", details: { reason: "suspect-through", review: "designs/req-login" } });
    expect(through.suggestion).toContain("Review 'designs/req-login' instead.");
    expect(await callError(client, "catdoc_review", { ids: ["req-login-session"], all: true })).toMatchObject({ code: "INVALID_INPUT" });
    expect(await callError(client, "catdoc_review", {})).toMatchObject({ code: "INVALID_INPUT" });
    expect(await readFile(categoryFile(root))).toEqual(bytes);
  });

  it("answers at three nested levels: ids, then each link's kind and ends, then the stamps", async () => {
    const answers = {} as Record<Level, Body>;
    for (const level of ["minimal", "standard", "full"] as const) {
      // A review writes: each level gets its own project.
      const client = await connect(await writeTraceProject(await tempDir()));
      answers[level] = await call(client, "catdoc_review", { all: true, response_level: level });
    }
    assertLevelsNested(answers);
    expect(Object.keys(answers.minimal).sort()).toEqual(["cleared", "counts", "reviewed", "truncated", "written"]);
    expect((answers.standard["links"] as Body[])[0]).toEqual({
      id: "req-login-session",
      kind: "morphism",
      source: "req-login",
      target: "req-session",
      was: "unreviewed",
    });
    expect(JSON.stringify(answers.minimal).length).toBeLessThan(JSON.stringify(answers.full).length / 4);
  });
});
