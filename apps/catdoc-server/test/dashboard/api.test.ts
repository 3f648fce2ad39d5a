/** The dashboard's REST API over real HTTP, on copies of the original's examples. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { copyExample, useTempDirs, validModel, writeProject } from "../domain/helpers.js";
import { http, useDashboards } from "./dashboard-harness.js";

const tempDir = useTempDirs();
const dashboardOn = useDashboards();

describe("read endpoints (the original dashboard's shapes)", () => {
  it("health, objects (domain and category filters, limit), object by id", async () => {
    const { api } = await dashboardOn(await copyExample(await tempDir(), "dev-project"));
    const health = await api("/api/health");
    expect(health.status).toBe(200);
    expect(health.json()).toMatchObject({ status: "ok", project: { initialized: true } });
    expect(typeof health.json()["timestamp"]).toBe("string");

    const objects = (await api("/api/objects")).json() as { objects: Array<{ id: string; categoryId: string }>; total: number };
    expect(objects.total).toBe(11);
    expect(objects.objects[0]).toMatchObject({
      id: "req-user-management",
      title: "ユーザー管理要件",
      domain: "requirements",
      categoryId: "requirements",
    });
    const infra = (await api("/api/objects?domain=infrastructure&limit=1")).json() as { objects: unknown[]; total: number };
    expect(infra).toMatchObject({ total: 3, objects: [{ id: "infra-k8s-user" }] });
    const inDesign = (await api("/api/objects?category=design")).json() as { objects: Array<{ id: string }> };
    expect(inDesign.objects.map((o) => o.id)).toEqual(["design-user-service", "design-auth-service"]);

    const one = (await api("/api/objects/req-auth-system")).json();
    expect(one).toMatchObject({
      object: { id: "req-auth-system", categoryId: "requirements" },
      identity: "id-req-auth",
      document: { path: "docs/requirements/auth-system.md", origin: "frontmatter-id" },
      outgoingMorphisms: [
        { id: "req-auth-depends-user", target: "req-user-management", isIdentity: false },
        { id: "id-req-auth", isIdentity: true },
      ],
    });
  });

  it("morphisms (source/target filters), categories with counts, functors, natural transformations", async () => {
    const { api } = await dashboardOn(await writeProject(await tempDir(), stringify(validModel())));
    const fromA = (await api("/api/morphisms?source=a")).json() as { morphisms: Array<{ id: string }> };
    expect(fromA.morphisms.map((m) => m.id)).toEqual(["f", "h", "id-a"]);
    const intoZ = (await api("/api/morphisms?target=z&category=D")).json() as { morphisms: Array<{ id: string }> };
    expect(intoZ.morphisms.map((m) => m.id)).toEqual(["q", "r", "id-z"]);
    expect((await api("/api/morphisms/g")).json()).toMatchObject({ morphism: { id: "g", source: "b", target: "c", categoryId: "C" } });

    expect((await api("/api/categories")).json()).toEqual({
      categories: [
        { id: "C", name: "Source", objectCount: 3, morphismCount: 6 },
        { id: "D", name: "Target", objectCount: 3, morphismCount: 6 },
      ],
    });
    const category = (await api("/api/categories/D")).json() as {
      category: { objects: unknown[]; morphisms: unknown[] };
      functors: unknown[];
    };
    expect(category.category.objects).toHaveLength(3);
    expect(category.category.morphisms).toHaveLength(6);
    expect(category.functors).toHaveLength(2);

    expect((await api("/api/functors")).json()).toMatchObject({
      functors: [{ id: "F", sourceCategory: "C", targetCategory: "D", mappedObjects: 3 }, { id: "G" }],
    });
    expect((await api("/api/functors/F")).json()).toMatchObject({ functor: { objectMapping: { a: "x" }, morphismMapping: { f: "p" } } });
    expect((await api("/api/natural-transformations")).json()).toEqual({
      naturalTransformations: [{ id: "eta", name: "η", sourceFunctor: "F", targetFunctor: "G", componentCount: 3 }],
    });
    expect((await api("/api/natural-transformations/eta")).json()).toMatchObject({ naturalTransformation: { components: { a: "id-x" } } });
  });

  it("graph: nodes and edges of every category or one, functor edges on request", async () => {
    const { api } = await dashboardOn(await copyExample(await tempDir(), "math-docs"));
    const all = (await api("/api/graph")).json() as { nodes: Array<Record<string, unknown>>; edges: Array<Record<string, unknown>> };
    expect(all.nodes).toHaveLength(8);
    expect(all.edges).toHaveLength(14);
    expect(all.nodes.find((n) => n["id"] === "sets")).toEqual({
      id: "sets",
      label: "Set Theory Fundamentals",
      type: "object",
      domain: "mathematics",
      categoryId: "algebra",
    });
    expect(all.edges.find((e) => e["id"] === "set-to-group")).toMatchObject({
      source: "sets",
      target: "groups",
      label: "add-operation",
      type: "morphism",
      isIdentity: false,
    });
    const topology = (await api("/api/graph?category=topology")).json() as { nodes: unknown[]; edges: unknown[] };
    expect([topology.nodes.length, topology.edges.length]).toEqual([3, 5]);
    const withFunctors = (await api("/api/graph?functors=true")).json() as { edges: Array<{ type: string; id: string }> };
    expect(withFunctors.edges.filter((e) => e.type === "functor").map((e) => e.id)).toContain("forgetful-alg:groups");
  });

  it("validate: GET and POST (as the original), the whole project or one category", async () => {
    const { api } = await dashboardOn(await copyExample(await tempDir(), "math-docs"));
    const report = (await api("/api/validate")).json() as {
      isValid: boolean;
      warnings: Array<{ code: string }>;
      summary: Record<string, number>;
    };
    expect(report.isValid).toBe(true);
    expect(report.warnings.map((w) => w.code)).toEqual(["MISSING_COMPOSITION", "MISSING_COMPOSITION", "MISSING_COMPOSITION"]);
    expect(report.summary).toMatchObject({ categoriesChecked: 2, functorsChecked: 1 });
    const posted = await api("/api/validate", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ categoryId: "topology" }),
    });
    expect(posted.json()).toMatchObject({ isValid: true, warnings: [], summary: { categoriesChecked: 1, functorsChecked: 0 } });
    const emptyPost = await api("/api/validate", { method: "POST" });
    expect(emptyPost.json()).toMatchObject({ summary: { categoriesChecked: 2 } });
  });

  it("trace: shortest path and all paths (GET and POST), no path, across categories", async () => {
    const { api } = await dashboardOn(await copyExample(await tempDir(), "math-docs"));
    const trace = (await api("/api/trace?source=sets&target=fields")).json() as {
      found: boolean;
      shortestPathLength: number;
      shortestPath: Array<{ id: string }>;
      paths: unknown[][];
    };
    expect(trace).toMatchObject({ found: true, shortestPathLength: 3, categoryId: "algebra", crossCategory: false });
    expect(trace.shortestPath.map((step) => step.id)).toEqual(["set-to-group", "group-to-ring", "ring-to-field"]);
    expect(trace.shortestPath[0]).toEqual({
      kind: "morphism",
      id: "set-to-group",
      name: "add-operation",
      source: "sets",
      target: "groups",
      categoryId: "algebra",
    });
    const posted = await api("/api/trace", {
      method: "POST",
      body: JSON.stringify({ source: "sets", target: "modules", categoryId: "algebra", all: true }),
    });
    expect(posted.json()).toMatchObject({ found: true, shortestPathLength: 3 });
    const none = (await api("/api/trace?source=fields&target=sets")).json();
    expect(none).toMatchObject({ found: false, paths: [], shortestPath: null, shortestPathLength: null });

    const dev = await dashboardOn(await copyExample(await tempDir(), "dev-project"));
    const across = (await dev.api("/api/trace?source=req-user-management&target=infra-k8s-user")).json() as {
      crossCategory: boolean;
      shortestPath: Array<{ kind: string; id: string }>;
    };
    expect(across.crossCategory).toBe(true);
    expect(across.shortestPath.map((step) => `${step.kind}:${step.id}`)).toEqual([
      "functor:specify-functor",
      "functor:design-functor",
      "functor:implement-functor",
      "functor:deploy-functor",
    ]);
  });
});

describe("errors: JSON with a code and the HTTP status", () => {
  it("unknown ids are 404 NOT_FOUND with the original's message", async () => {
    const { api } = await dashboardOn(await copyExample(await tempDir(), "math-docs"));
    for (const path of [
      "/api/objects/nope",
      "/api/morphisms/nope",
      "/api/categories/nope",
      "/api/functors/nope",
      "/api/natural-transformations/nope",
      "/api/graph?category=nope",
    ]) {
      const answer = await api(path);
      expect(answer.status, path).toBe(404);
      expect(answer.json(), path).toMatchObject({ code: "NOT_FOUND", status: 404 });
      expect(answer.json()["error"], path).toContain("not found");
    }
    expect((await api("/api/objects/nope")).json()).toMatchObject({ error: "Object 'nope' not found" });
    const unknownSource = await api("/api/trace?source=nope&target=fields");
    expect(unknownSource.status).toBe(404);
  });

  it("bad input is 400, unknown routes 404, wrong methods 405 with Allow", async () => {
    const { api } = await dashboardOn(await copyExample(await tempDir(), "math-docs"));
    const missing = await api("/api/trace", { method: "POST", body: JSON.stringify({ source: "sets" }) });
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ error: "Missing source or target", code: "INVALID_INPUT" });
    expect((await api("/api/trace", { method: "POST", body: "{not json" })).status).toBe(400);
    expect((await api("/api/trace?source=sets&target=fields&maxDepth=0")).status).toBe(400);
    expect((await api("/api/objects?limit=-1")).status).toBe(400);
    expect((await api("/api/validate?category=algebra&functor=forgetful-alg")).status).toBe(400);
    const unknown = await api("/api/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "NOT_FOUND" });
    const deleted = await api("/api/objects", { method: "DELETE" });
    expect(deleted.status).toBe(405);
    expect(deleted.headers["allow"]).toBe("GET, HEAD");
    expect((await api("/api/objects", { method: "POST", body: "{}" })).status).toBe(405);
  });

  it("an uninitialized project and a malformed category.yaml say what is wrong", async () => {
    const empty = await tempDir();
    const { api } = await dashboardOn(empty);
    expect((await api("/api/health")).json()).toMatchObject({ status: "ok", project: { initialized: false } });
    const objects = await api("/api/objects");
    expect(objects.status).toBe(404);
    expect(objects.json()["error"]).toContain("not initialized");

    const broken = await writeProject(await tempDir(), "categories:\n  - id: a\n    name: [unclosed\n");
    const other = await dashboardOn(broken);
    const answer = await other.api("/api/validate");
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ code: "INVALID_INPUT", details: { file: ".catdoc/category.yaml" } });
    expect(answer.json()["error"]).toMatch(/^\.catdoc\/category\.yaml:\d+:\d+:/);
  });
});

describe("loopback only: Host and Origin checks", () => {
  it("refuses a foreign Host (DNS rebinding) and a foreign Origin with 403", async () => {
    const dashboard = await dashboardOn(await copyExample(await tempDir(), "math-docs"));
    const host = await http(`${dashboard.url}api/objects`, { headers: { Host: `evil.example:${dashboard.port}` } });
    expect(host.status).toBe(403);
    expect(host.json()).toMatchObject({ code: "FORBIDDEN", status: 403 });
    const wrongPort = await http(`${dashboard.url}api/objects`, { headers: { Host: `127.0.0.1:${dashboard.port + 1}` } });
    expect(wrongPort.status).toBe(403);
    const origin = await http(`${dashboard.url}api/validate`, { method: "POST", headers: { Origin: "http://evil.example" }, body: "{}" });
    expect(origin.status).toBe(403);
    expect(origin.json()["error"]).toContain("Origin http://evil.example is not allowed");
    const page = await http(dashboard.url, { headers: { Origin: "https://evil.example" } });
    expect(page.status).toBe(403);
  });

  it("answers its own origin and localhost", async () => {
    const dashboard = await dashboardOn(await copyExample(await tempDir(), "math-docs"));
    const same = await http(`${dashboard.url}api/health`, { headers: { Origin: `http://127.0.0.1:${dashboard.port}` } });
    expect(same.status).toBe(200);
    const localhost = await http(`${dashboard.url}api/health`, { headers: { Host: `localhost:${dashboard.port}` } });
    expect(localhost.status).toBe(200);
  });
});

describe("the page and its assets", () => {
  it("serves the page with a strict CSP, its script and style, and cytoscape from the package", async () => {
    const dashboard = await dashboardOn(await copyExample(await tempDir(), "math-docs"));
    const page = await http(dashboard.url);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.text).toContain('<script src="/assets/cytoscape.min.js"></script>');
    const cytoscape = await http(`${dashboard.url}assets/cytoscape.min.js`);
    expect(cytoscape.status).toBe(200);
    expect(cytoscape.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(cytoscape.text.length).toBeGreaterThan(100_000);
    expect((await http(`${dashboard.url}assets/app.js`)).status).toBe(200);
    expect((await http(`${dashboard.url}assets/app.css`)).status).toBe(200);
    expect((await http(`${dashboard.url}../package.json`)).status).toBe(404);
    expect((await http(`${dashboard.url}assets/../../package.json`)).status).toBe(404);
  });
});

describe("freshness", () => {
  it("each request sees category.yaml as it is now", async () => {
    const root = await copyExample(await tempDir(), "math-docs");
    const { api } = await dashboardOn(root);
    expect(((await api("/api/categories")).json() as { categories: unknown[] }).categories).toHaveLength(2);
    const model = validModel();
    await writeFile(join(root, ".catdoc", "category.yaml"), stringify(model));
    const categories = (await api("/api/categories")).json() as { categories: Array<{ id: string }> };
    expect(categories.categories.map((c) => c.id)).toEqual(["C", "D"]);
  });
});
