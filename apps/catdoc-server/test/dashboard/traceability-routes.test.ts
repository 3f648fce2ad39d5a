/**
 * The dashboard's coverage, suspect-link, search and export routes over real HTTP (issue 17 item
 * 6), on one copy of the export tests' project whose req-login changed after a review.
 */
import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DASHBOARD_CSP } from "@local-mcp/core";
import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../cli/run-in-process.js";
import { writeExportProject } from "../export/export-fixture.js";
import { useDashboards } from "./dashboard-harness.js";

const dashboardOn = useDashboards();
let root = "";

beforeAll(async () => {
  root = await writeExportProject(await mkdtemp(join(tmpdir(), "catdoc-dashboard-export-")));
  expect((await runInProcess(["review", "--all"], root)).code).toBe(0);
  await appendFile(join(root, "docs/req-login.md"), "Users may log in with a passkey.\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("coverage, suspect links and search", () => {
  it("/api/coverage is computeCoverage's report (all functors or one); an unknown functor is 404 NOT_FOUND", async () => {
    const { api } = await dashboardOn(root);
    const all = (await api("/api/coverage")).json();
    expect(all).toMatchObject({
      functors: [
        { functorId: "tests", covered: 1, triviallyCovered: 1, uncovered: 1, uncoveredIds: ["req-audit"], percent: { covered: 33.3 } },
      ],
      categories: [{ categoryId: "requirements", orphans: [] }, { categoryId: "tests" }],
    });
    expect((await api("/api/coverage?functor=tests")).json()).toEqual(all);
    const unknown = await api("/api/coverage?functor=nope");
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("/api/suspect-links: the suspect links, why, and the changed documents", async () => {
    const { api } = await dashboardOn(root);
    expect((await api("/api/suspect-links")).json()).toEqual({
      links: 5,
      reviewed: 5,
      unreviewed: 0,
      suspect: [
        {
          id: "req-login-session",
          kind: "morphism",
          source: "req-login",
          target: "req-session",
          changed: ["req-login"],
          via: null,
          documents: ["req-login"],
        },
        {
          id: "tests/req-login",
          kind: "mapping",
          source: "req-login",
          target: "test-login",
          changed: ["req-login"],
          via: null,
          documents: ["req-login"],
        },
        {
          id: "test-login-session",
          kind: "morphism",
          source: "test-login",
          target: "test-session",
          changed: [],
          via: { linkId: "req-login-session", rule: "functor" },
          documents: ["req-login"],
        },
      ],
      changedDocuments: [
        {
          objectId: "req-login",
          path: "docs/req-login.md",
          directLinks: ["req-login-session", "tests/req-login"],
          spreadLinks: ["test-login-session"],
        },
      ],
    });
  });

  it("/api/search ranks objects by the project's search index; no query is 400 INVALID_INPUT", async () => {
    const { api } = await dashboardOn(root);
    const found = (await api("/api/search?q=passkey")).json() as { total: number; hits: Array<{ id: string }> };
    expect(found.hits.map((h) => h.id)).toEqual(["req-login"]);
    const sessions = (await api("/api/search?q=session&category=tests&limit=1")).json() as {
      hits: Array<{ id: string; categoryId: string }>;
    };
    expect(sessions.hits).toEqual([expect.objectContaining({ categoryId: "tests" })]);
    const empty = await api("/api/search");
    expect(empty.status).toBe(400);
    expect(empty.json()).toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("exports", () => {
  it("/export/traceability.html: the matrix under the dashboard's CSP, its style sheet linked, project strings escaped", async () => {
    const { api } = await dashboardOn(root);
    const page = await api("/export/traceability.html");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toBe(DASHBOARD_CSP);
    expect(page.text).toContain('<link rel="stylesheet" href="/export/traceability.css">');
    expect(page.text).not.toMatch(/<style|<script/);
    expect(page.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(page.text).toContain('<tr class="uncovered">');
    const css = await api("/export/traceability.css");
    expect(css.status).toBe(200);
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(css.text).toContain(".badge.suspect");
  });

  it("csv, json and reqif are downloads; --functor's filter; unknown names and methods are refused", async () => {
    const { api } = await dashboardOn(root);
    const csv = await api("/export/traceability.csv");
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="traceability.csv"');
    expect(csv.text.split("\r\n")).toHaveLength(5);
    const json = (await api("/export/traceability.json?functor=tests")).json();
    expect(json).toMatchObject({ schema: "catdoc-traceability", version: 1, functor: "tests" });
    const reqif = await api("/export/traceability.reqif");
    expect(reqif.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(XMLValidator.validate(reqif.text)).toBe(true);
    expect(reqif.text).toContain('<REQ-IF xmlns="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd">');

    expect((await api("/export/traceability.pdf")).json()).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect((await api("/export/traceability.html?functor=nope")).json()).toMatchObject({ code: "NOT_FOUND", status: 404 });
    const post = await api("/export/traceability.html", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers["allow"]).toBe("GET, HEAD");
  });
});
