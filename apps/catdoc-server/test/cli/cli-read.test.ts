/** The reading commands — list, show, search, trace, graph — through the built bin on the original's examples. */
import { beforeAll, describe, expect, it } from "vitest";
import { useExampleProjects } from "./fixture-projects.js";
import { assertBuilt, catdoc } from "./run-catdoc.js";

beforeAll(assertBuilt);
const roots = useExampleProjects();
const math = (args: string[]) => catdoc(args, { cwd: roots["math-docs"] });
const dev = (args: string[]) => catdoc(args, { cwd: roots["dev-project"] });

describe("catdoc list", () => {
  it("lists objects as a table whose columns line up, CJK titles included", async () => {
    const result = await dev(["list", "objects", "--category", "requirements"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe(
      "ID                   TITLE             DOMAIN        CATEGORY\n" +
        "req-user-management  ユーザー管理要件  requirements  requirements\n" +
        "req-auth-system      認証システム要件  requirements  requirements\n",
    );
  });

  it("filters by domain, limits, and prints the dashboard's JSON shape with the total", async () => {
    const json = await dev(["list", "objects", "--domain", "infrastructure", "--limit", "2", "--format", "json"]);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout) as { objects: Array<{ id: string; categoryId: string }>; total: number };
    expect(body.total).toBe(3);
    expect(body.objects.map((o) => o.id)).toEqual(["infra-k8s-user", "infra-k8s-auth"]);
    expect(body.objects[0]?.categoryId).toBe("infrastructure");

    const limited = await math(["list", "morphisms", "--limit", "3"]);
    expect(limited.stdout.trimEnd().split("\n")).toHaveLength(4);
    expect(limited.stderr).toBe("Showing 3 of 14 (--limit 3).\n");
  });

  it("lists categories with counts, functors and natural transformations", async () => {
    const categories = await math(["list", "categories"]);
    expect(categories.stdout).toMatch(/^algebra\s+Algebra\s+5\s+9$/m);
    expect(categories.stdout).toMatch(/^topology\s+Topology\s+3\s+5$/m);
    const functors = await dev(["list", "functors", "--format", "json"]);
    expect((JSON.parse(functors.stdout) as { functors: Array<{ id: string }> }).functors.map((f) => f.id)).toEqual([
      "specify-functor",
      "design-functor",
      "implement-functor",
      "deploy-functor",
    ]);
    const nts = await dev(["list", "nts"]);
    expect(nts).toMatchObject({ code: 0, stdout: "No natural transformations found.\n" });
  });

  it("morphisms carry their identity flag", async () => {
    const result = await math(["list", "morphisms", "--category", "topology", "--format", "json"]);
    const { morphisms } = JSON.parse(result.stdout) as { morphisms: Array<{ id: string; isIdentity: boolean }> };
    expect(morphisms.filter((m) => m.isIdentity).map((m) => m.id)).toEqual(["id-topo", "id-metric", "id-manifolds"]);
  });
});

describe("catdoc show", () => {
  it("shows an object with its document, identity, metadata and morphisms", async () => {
    const result = await math(["show", "object", "groups"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Object groups — Group Theory\n");
    expect(result.stdout).toContain("  identity: id-groups\n");
    expect(result.stdout).toContain("  document: docs/groups.md (frontmatter-id)\n");
    expect(result.stdout).toContain("    level: intermediate\n");
    expect(result.stdout).toMatch(
      /Outgoing morphisms\n {2}ID +NAME +SOURCE +TARGET +IDENTITY\n {2}group-to-ring +add-multiplication +groups +rings/,
    );
    expect(result.stdout).toMatch(/Incoming morphisms\n[\s\S]*set-to-group +add-operation +sets +groups/);
  });

  it("prints the document with --content, and JSON in the API's shape", async () => {
    const content = await math(["show", "object", "groups", "--content"]);
    expect(content.stdout).toContain("--- document ---\n# ");
    const json = await math(["show", "object", "groups", "--format", "json"]);
    const body = JSON.parse(json.stdout) as {
      object: { id: string };
      identity: string;
      document: { path: string };
      outgoingMorphisms: unknown[];
    };
    expect(body).toMatchObject({
      object: { id: "groups", categoryId: "algebra" },
      identity: "id-groups",
      document: { path: "docs/groups.md" },
    });
  });

  it("shows categories, morphisms and functors", async () => {
    const category = await dev(["show", "category", "specifications"]);
    expect(category.stdout).toContain("Category specifications — Specifications\n");
    expect(category.stdout).toMatch(/Functors from or to it\n[\s\S]*specify-functor[\s\S]*design-functor/);
    const morphism = await math(["show", "morphism", "ring-to-field"]);
    expect(morphism.stdout).toContain("  from:     rings\n  to:       fields\n");
    const functor = await dev(["show", "functor", "specify-functor"]);
    expect(functor.stdout).toMatch(/Object mapping\n {2}OBJECT +IMAGE\n {2}req-user-management +spec-user-api/);
  });

  it("an unknown id is one line on stderr and exit 1", async () => {
    expect(await math(["show", "object", "nope"])).toEqual({ code: 1, stdout: "", stderr: "catdoc: Object 'nope' not found\n" });
    expect(await math(["show", "category", "nope"])).toEqual({ code: 1, stdout: "", stderr: "catdoc: Category 'nope' not found\n" });
  });
});

describe("catdoc search", () => {
  it("ranks matches and shows their scores", async () => {
    const result = await math(["search", "group", "theory"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SCORE\s+ID\s+TITLE\s+DOMAIN\s+CATEGORY$/);
    expect(lines[1]).toMatch(/^\d+\.\d\d\s+groups\s+Group Theory\s+mathematics\s+algebra$/);
    const scores = lines.slice(1).map((line) => Number(line.split(/\s+/)[0]));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("filters by domain, limits, and says when nothing matches", async () => {
    const json = await dev(["search", "ユーザー", "--domain", "design", "--limit", "5", "--format", "json"]);
    const body = JSON.parse(json.stdout) as { hits: Array<{ id: string; domain: string; score: number }> };
    expect(body.hits.length).toBeGreaterThan(0);
    expect(body.hits.every((hit) => hit.domain === "design" && hit.score > 0)).toBe(true);
    expect(await math(["search", "zzzqqq"])).toMatchObject({ code: 0, stdout: "No matches for 'zzzqqq'.\n" });
  });
});

describe("catdoc trace", () => {
  it("prints the shortest path with each morphism's name and id", async () => {
    const result = await math(["trace", "sets", "fields"]);
    expect(result).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "sets → fields in category algebra: shortest path, 3 steps\n" +
        "    sets\n" +
        "      --add-operation (set-to-group)--> groups\n" +
        "      --add-multiplication (group-to-ring)--> rings\n" +
        "      --add-inverses (ring-to-field)--> fields\n",
    });
  });

  it("lists all paths with --all (JSON), and says when there is none", async () => {
    const json = await math(["trace", "groups", "modules", "--all", "--max-depth", "3", "--format", "json"]);
    const view = JSON.parse(json.stdout) as {
      found: boolean;
      paths: Array<Array<{ id: string; kind: string }>>;
      shortestPathLength: number;
    };
    expect(view.found).toBe(true);
    expect(view.paths.map((path) => path.map((step) => step.id))).toEqual([["group-to-ring", "ring-to-module"]]);
    expect(view.shortestPathLength).toBe(2);
    expect(await math(["trace", "fields", "sets"])).toMatchObject({
      code: 0,
      stdout: "No path from fields to sets in category algebra.\n",
    });
  });

  it("goes across categories through functors (--to-category, or a target in another category)", async () => {
    const result = await dev(["trace", "req-user-management", "infra-k8s-user"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "req-user-management → infra-k8s-user from category requirements to category infrastructure: shortest path, 4 steps\n" +
        "    req-user-management\n" +
        "      ==SpecifyFunctor (要件→仕様) (specify-functor)==> spec-user-api  [specifications]\n" +
        "      ==DesignFunctor (仕様→設計) (design-functor)==> design-user-service  [design]\n" +
        "      ==ImplementFunctor (設計→内部仕様) (implement-functor)==> internal-user-repository  [internal-spec]\n" +
        "      ==DeployFunctor (内部仕様→インフラ) (deploy-functor)==> infra-k8s-user  [infrastructure]\n",
    );
    const landing = await dev(["trace", "req-auth-system", "--to-category", "infrastructure", "--format", "json"]);
    expect(JSON.parse(landing.stdout)).toMatchObject({ found: true, crossCategory: true, target: null, shortestPathLength: 4 });
    const unknown = await dev(["trace", "req-auth-system", "--to-category", "nope"]);
    expect(unknown).toEqual({ code: 1, stdout: "", stderr: "catdoc: Category 'nope' not found\n" });
  });
});

describe("catdoc graph", () => {
  it("prints Mermaid with a subgraph per category and escaped labels", async () => {
    const result = await dev(["graph", "--category", "requirements"]);
    expect(result.stdout).toBe(
      "flowchart LR\n" +
        '  subgraph c0["Requirements (requirements)"]\n' +
        '    n0["ユーザー管理要件<br/>req-user-management"]\n' +
        '    n1["認証システム要件<br/>req-auth-system"]\n' +
        "  end\n" +
        '  n1 -->|"depends-on"| n0\n',
    );
  });

  it("prints Graphviz DOT, with identities on request and functor arrows dashed", async () => {
    const dot = await math(["graph", "--format", "dot", "--category", "topology", "--identities"]);
    expect(dot.stdout).toMatch(/^digraph catdoc \{\n {2}rankdir=LR;/);
    expect(dot.stdout).toContain('  subgraph "cluster_0" {\n    label="Topology (topology)";\n');
    expect(dot.stdout).toContain('    "metric-spaces" [label="Metric Spaces\\nmetric-spaces"];\n');
    expect(dot.stdout).toContain('  "metric-spaces" -> "topological-spaces" [label="induced-topology"];\n');
    expect(dot.stdout).toContain('  "manifolds" -> "manifolds" [label="id_manifolds", style=dotted];\n');
    expect(dot.stdout.endsWith("}\n")).toBe(true);
    const functors = await dev(["graph", "--format", "dot", "--functors"]);
    expect(functors.stdout).toContain(
      '  "req-user-management" -> "spec-user-api" [label="SpecifyFunctor (要件→仕様)", style=dashed, color=purple];\n',
    );
  });

  it("prints the /api/graph JSON", async () => {
    const result = await math(["graph", "--format", "json"]);
    const graph = JSON.parse(result.stdout) as { nodes: unknown[]; edges: Array<{ isIdentity: boolean }> };
    expect(graph.nodes).toHaveLength(8);
    expect(graph.edges).toHaveLength(14);
    expect(graph.edges.filter((e) => e.isIdentity)).toHaveLength(8);
  });
});
