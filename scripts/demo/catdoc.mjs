// CatDoc on examples/catdoc (the Quill note-taking app: requirements → design → implementation),
// through the real MCP client over stdio: list the tools, validate the laws, trace a path inside
// a category and one across categories, search, and a dry-run import of the draft document. The
// server serves a temporary copy of the example, so examples/ is never changed.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const plural = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/** Calls a tool and returns its structuredContent; an error result fails the demo. */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent ?? result.content)}`);
  return result.structuredContent;
}

/** `a --name--> b --name--> c`. */
function describeWithin(path) {
  return path.objectIds.map((id, i) => (i === 0 ? id : `--${path.morphisms[i - 1].name}--> ${id}`)).join(" ");
}

/** Functor steps `==F==>`, component steps `~~η~~>`, then the arrival inside the target category. */
function describeAcross(path) {
  const parts = [path.steps[0]?.fromObject];
  for (const step of path.steps)
    parts.push(step.kind === "functor" ? `==${step.id}==> ${step.toObject}` : `~~${step.id} component~~> ${step.toObject}`);
  const arrival = path.arrival;
  if (arrival && arrival.objectIds.every((id) => id === path.resultObject))
    parts.push(`(arrives: ${arrival.morphisms?.[0]?.name ?? "identity"})`);
  else if (arrival) parts.push(describeWithin(arrival).slice(arrival.objectIds[0].length + 1));
  return parts.filter(Boolean).join(" ");
}

export async function run({ root, spawn, log }) {
  const project = mkdtempSync(join(tmpdir(), "catdoc-demo-"));
  cpSync(join(root, "examples/catdoc"), project, { recursive: true });
  const started = Date.now();
  const proc = await spawn({ env: { CATDOC_PROJECT_PATH: project, LOCAL_MCP_LOG_LEVEL: "warn" } });
  try {
    const { client } = proc;
    const { tools } = await client.listTools();
    log(`connected over stdio in ${Date.now() - started} ms; ${tools.length} tools; project: a copy of examples/catdoc`);
    if (tools.length !== 22) throw new Error(`catdoc-mcp should list 22 tools, got ${tools.length}`);

    const categories = await call(client, "catdoc_list_categories", { response_level: "standard" });
    log(`categories: ${categories.categories.map((c) => `${c.id} (${c.objectCount} objects, ${c.morphismCount} morphisms)`).join(", ")}`);

    const report = await call(client, "catdoc_validate", { response_level: "standard" });
    const { summary } = report;
    log(
      `catdoc_validate → ${report.isValid ? "VALID" : "INVALID"}: ${plural(summary.totalErrors, "error")}, ${plural(summary.totalWarnings, "warning")} ` +
        `(${plural(summary.categoriesChecked, "category", "categories")}, ${plural(summary.functorsChecked, "functor")}, ` +
        `${plural(summary.naturalTransformationsChecked, "natural transformation")} checked)`,
    );
    for (const warning of report.warnings) log(`  ${warning.code}: ${warning.message}`);
    if (!report.isValid) throw new Error("examples/catdoc should validate");

    const within = await call(client, "catdoc_trace", { sourceId: "req-offline", targetId: "req-notes", response_level: "standard" });
    log(
      `catdoc_trace req-offline → req-notes (${within.mode} ${within.categoryId}, ${within.length} steps): ${describeWithin(within.paths[0])}`,
    );

    const across = await call(client, "catdoc_trace", {
      sourceId: "req-search",
      targetId: "impl-app",
      findAll: true,
      response_level: "standard",
    });
    log(
      `catdoc_trace req-search → impl-app (${across.mode} ${across.sourceCategory} → ${across.targetCategory}, ${across.pathCount} paths, shortest ${across.length} steps):`,
    );
    for (const path of across.paths) log(`  ${path.length} steps: ${describeAcross(path)}`);
    if (!within.found || !across.found) throw new Error("both traces should find a path");

    const search = await call(client, "catdoc_search", { query: "offline sync", limit: 3, response_level: "standard" });
    log(`catdoc_search "offline sync" → ${search.total} hits; top ${search.returned}:`);
    for (const hit of search.hits) log(`  ${hit.score.toFixed(2).padStart(6)}  ${hit.id.padEnd(12)} ${hit.title} [${hit.categoryId}]`);
    const typo = await call(client, "catdoc_search", { query: "replicaton", domain: "code", limit: 1 });
    log(`catdoc_search "replicaton" (a typo; domain code) → ${typo.hits.map((h) => `${h.id} ${h.score.toFixed(2)}`).join(", ")}`);
    if (typo.hits[0]?.id !== "impl-sync") throw new Error("fuzzy search should find impl-sync");

    const plan = await call(client, "catdoc_import_document", {
      filePath: "docs/design/conflict-resolution.md",
      categoryId: "design",
      dryRun: true,
      response_level: "standard",
    });
    log(
      `catdoc_import_document --dryRun docs/design/conflict-resolution.md → written ${plan.written}; would add ` +
        `${plan.added.map((o) => o.id).join(", ")} and ${plan.proposedMorphisms.map((m) => `${m.source} → ${m.target}`).join(", ")}`,
    );
    for (const warning of plan.warnings) log(`  warning: ${warning}`);
    if (plan.written) throw new Error("a dry run wrote category.yaml");

    proc.assertCleanStdout();
    log(`stdout carried only JSON-RPC (${proc.stdoutLines.length} lines)`);
  } finally {
    await proc.close();
    rmSync(project, { recursive: true, force: true });
  }
}
