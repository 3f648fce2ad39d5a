// local-model-mcp on examples/local-model (Streaks, a GSD-style project: .planning/ with two PLANs
// and a SUMMARY, and the TS module they describe), through the real MCP client over stdio: read a
// PLAN's frontmatter, turn its must_haves into exact checks and verify them against src/, then
// summarize git status. The server serves a temporary copy made into a git repository (one
// commit, then a rename, a modification and a new file), with its roots, working directory and
// stats file there, so examples/ and the user's stats are never touched. No model is needed.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PLAN = ".planning/phases/01-habit-core/01-02-PLAN.md";

/** Calls a tool and returns its structuredContent; an error result fails the demo. */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent ?? result.content)}`);
  return result.structuredContent;
}

/** The contract fields every answer carries, in one short line. */
const facts = (body) =>
  `engine ${body.engine}, confidence ${body.confidence}, tokens_used ${body.tokens_used}, tokens_saved ${body.tokens_saved}${body.tokens_over ? ` (tokens_over ${body.tokens_over}: the answer cost more than its input)` : ""}`;

/** The example as a git repository: one commit, then the working state of plan 01-02. */
function makeRepo(project) {
  // No global or system git config, so the user's hooks, signing or templates play no part.
  const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
  const git = (...args) => execFileSync("git", args, { cwd: project, env, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Demo");
  git("config", "user.email", "demo@example.com");
  git("add", ".");
  git("commit", "-q", "-m", "Streaks: plan 01-01 done, plan 01-02 planned");
  // A rename (staged, with the importer fixed, unstaged), STATE.md updated, a new SUMMARY.
  git("mv", "src/habits/dates.ts", "src/habits/calendar.ts");
  const streak = join(project, "src/habits/streak.ts");
  writeFileSync(streak, readFileSync(streak, "utf8").replace('"./dates.js"', '"./calendar.js"'));
  const state = join(project, ".planning/STATE.md");
  writeFileSync(state, readFileSync(state, "utf8").replace("Completed 01-01-PLAN.md\n\nProgress", "Executing 01-02-PLAN.md\n\nProgress"));
  writeFileSync(
    join(project, ".planning/phases/01-habit-core/01-02-SUMMARY.md"),
    '---\nphase: 01-habit-core\nplan: "02"\n---\n\n# Phase 01 Plan 02 Summary (draft)\n',
  );
}

/** must_haves → exact checks: each artifact's exports and `contains`, each key link's pattern. */
function checksFrom(mustHaves) {
  const conditions = [];
  for (const artifact of mustHaves.artifacts ?? []) {
    for (const name of artifact.exports ?? []) conditions.push({ file: artifact.path, condition: { type: "exports", value: name } });
    if (artifact.contains) conditions.push({ file: artifact.path, condition: { type: "contains", value: artifact.contains } });
  }
  for (const link of mustHaves.key_links ?? []) {
    conditions.push({
      file: link.from,
      description: `${link.from} → ${link.to}: ${link.via}`,
      condition: { type: "pattern", value: link.pattern },
    });
  }
  return conditions.map((check, i) => ({ id: `MH-${String(i + 1).padStart(2, "0")}`, ...check }));
}

/** `line N: <snippet>`, cut to a readable length. */
const short = (text, max = 64) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export async function run({ root, spawn, log }) {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "local-model-demo-")));
  try {
    const project = join(scratch, "streaks");
    cpSync(join(root, "examples/local-model"), project, { recursive: true });
    makeRepo(project);
    await flow(project, join(scratch, "state"), spawn, log);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function flow(project, stateDir, spawn, log) {
  const started = Date.now();
  const proc = await spawn({
    cwd: project,
    // Empty values count as unset: a model or config file in the caller's environment plays no part.
    env: {
      LOCAL_MODEL_ROOTS: project,
      LOCAL_MODEL_STATE_DIR: stateDir,
      LOCAL_MODEL_CONFIG: "",
      LOCAL_MODEL_MODEL_PATH: "",
      LOCAL_MODEL_REMOTE_BASE_URL: "",
      LOCAL_MCP_LOG_LEVEL: "warn",
    },
  });
  try {
    const { client } = proc;
    const { tools } = await client.listTools();
    log(`connected over stdio in ${Date.now() - started} ms; ${tools.length} tools: ${tools.map((t) => t.name).join(", ")}`);
    log("project: a copy of examples/local-model made into a git repo; roots = that copy; no model configured");

    // 1. The PLAN's frontmatter, without reading the file.
    const extract = await call(client, "local_extract", {
      task_type: "frontmatter",
      files: [PLAN],
      extract: { fields: ["phase", "plan", "wave", "depends_on", "autonomous", "files_modified", "must_haves"] },
    });
    const plan = extract.data.results[PLAN];
    if (!extract.success || !plan.found) throw new Error(`${PLAN} has no frontmatter`);
    const fm = plan.data;
    log(`local_extract frontmatter ${PLAN} → ${facts(extract)}`);
    log(
      `  phase ${fm.phase}, plan ${fm.plan}, wave ${fm.wave}, depends_on ${JSON.stringify(fm.depends_on)}, autonomous ${fm.autonomous}, files_modified ${JSON.stringify(fm.files_modified)}`,
    );
    log(
      `  must_haves: ${fm.must_haves.truths.length} truths, ${fm.must_haves.artifacts.length} artifacts, ${fm.must_haves.key_links.length} key link`,
    );

    // 2. Its must-haves, checked exactly against src/ (line evidence; `via` for re-exports).
    const checks = checksFrom(fm.must_haves);
    const verify = await call(client, "local_verify", { task_type: "must_haves", checks, response_level: "standard" });
    log(`local_verify ${checks.length} must-have checks → ${verify.data.passed} passed, ${verify.data.failed} failed; ${facts(verify)}`);
    for (const [i, result] of verify.data.results.entries()) {
      const { file, condition } = checks[i];
      const via = result.via ? ` (via ${short(result.via, 56)})` : "";
      log(
        `  ${result.status === "pass" ? "✓" : "✗"} ${result.id} ${file} ${condition.type} ${condition.value} — ${short(result.evidence)}${via}${result.reason ? ` (${result.reason})` : ""}`,
      );
    }
    if (verify.data.failed > 0) throw new Error("every must-have of the example should pass");

    // 3. Git status as exact lists instead of raw output.
    const status = await call(client, "local_git", { task_type: "status" });
    const d = status.data;
    log(`local_git status → ${facts(status)}`);
    log(`  branch ${d.branch}; staged ${JSON.stringify(d.staged)}; modified ${JSON.stringify(d.modified)}`);
    log(
      `  renamed ${d.renamed.map((r) => `${r.from} → ${r.to}`).join(", ")}; untracked ${JSON.stringify(d.untracked)}; deleted ${JSON.stringify(d.deleted)}`,
    );
    const expected = { renamed: 1, modified: 2, untracked: 1 };
    if (d.renamed.length !== expected.renamed || d.modified.length !== expected.modified || d.untracked.length !== expected.untracked) {
      throw new Error(`unexpected status: ${JSON.stringify(d)}`);
    }

    // The server's own account of this session.
    const stats = JSON.parse((await client.readResource({ uri: "local://stats" })).contents[0].text);
    log(
      `local://stats → ${stats.totals.calls} calls, tokens_saved ${stats.totals.tokens_saved}, tokens_over ${stats.totals.tokens_over}, tokens_used ${stats.totals.tokens_used}`,
    );

    proc.assertCleanStdout();
    log(`stdout carried only JSON-RPC (${proc.stdoutLines.length} lines)`);
  } finally {
    await proc.close();
  }
}
