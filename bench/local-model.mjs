// Benchmark (issue #5, part 8): local-model-mcp's local_extract and local_git through the real SDK
// client (in process), on generated data.
//   1. Frontmatter extraction over 50 GSD PLAN files (written by the server's own `plan` template,
//      2.5–3.5 KB each): the deterministic engine (the yaml library) vs the model engine, one call per
//      file, p50 latency and the ratio. The model is core's tiny random-weights GGUF
//      (writeTinyLlamaGguf: 64-wide, 2 layers, byte-level vocabulary) on 1 CPU thread: its answers
//      are schema-valid noise, and the ratio shows what the model path costs by itself (prompt,
//      grammar-constrained generation, Ajv, retries). A real 7B model does vastly more work per
//      token than this one, so with it the ratio would be far larger: this is not a 7B figure.
//   2. Tokens saved (target ≥ 90%): what Claude would otherwise read — the PLAN files whole, or the
//      output of a plain `git status` — against the response it reads instead (its
//      structuredContent, which is what Claude Code shows the model). Both sides use the server's
//      estimator, 4 characters per token. Git status runs on a generated repository of some
//      hundreds of files with a few dozen changes of every kind.
// Imports the built dist files: build first (`pnpm bench` does). Sizes: BENCH_LOCAL_MODEL_FILES,
// BENCH_LOCAL_MODEL_REPS.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { seededRandom } from "../packages/core/dist/seeded-random.js";
import { connectInProcess, writeTinyLlamaGguf } from "../packages/core/dist/testing/index.js";
import { loadLocalModelConfig } from "../apps/local-model-server/dist/config.js";
import { createLocalModelServer } from "../apps/local-model-server/dist/server.js";
import { estimateTextTokens } from "../apps/local-model-server/dist/domain/tokens.js";

const FILES = Number(process.env.BENCH_LOCAL_MODEL_FILES ?? 50);
const REPS = Number(process.env.BENCH_LOCAL_MODEL_REPS ?? 5);
const FIELDS = ["wave", "depends_on", "autonomous", "files_modified"]; // what wave scheduling needs
const TARGET_SAVED = 0.9;
const benchStarted = performance.now();

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "bench-local-model-")));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true })); // also when a check throws
const project = join(scratch, "project");
const repo = join(scratch, "repo");
mkdirSync(project);
mkdirSync(repo);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95) };
};
const fmt = (ms) => (ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`);
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const n = (x) => x.toLocaleString("en-US");
function info(label, text) {
  console.log(`  ${label.padEnd(46)} ${text}`);
}
let missed = 0;
function savedFigure(label, baselineTokens, responseTokens, basis) {
  const saved = 1 - responseTokens / baselineTokens;
  if (saved < TARGET_SAVED) missed += 1;
  info(
    label,
    `${pct(saved)} (target ≥ ${pct(TARGET_SAVED)}) ${saved >= TARGET_SAVED ? "MET" : "MISSED"}  — ${n(responseTokens)} tokens read instead of ${n(baselineTokens)} (${basis})`,
  );
}
const rnd = seededRandom(5); // seeded, so every run writes the same files
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];

/** A server on `roots`, connected to the SDK client in process (tools listed, so outputs are validated). */
async function connect(env) {
  const config = loadLocalModelConfig({ LOCAL_MCP_LOG_LEVEL: "warn", LOCAL_MODEL_STATE_DIR: join(scratch, "state"), ...env }, scratch);
  const connection = await connectInProcess(createLocalModelServer(config));
  await connection.client.listTools();
  const call = async (name, args) => {
    const started = performance.now();
    const result = await connection.client.callTool({ name, arguments: args });
    const ms = performance.now() - started;
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
    return { ms, body: result.structuredContent };
  };
  return { ...connection, call };
}
/** Tokens of what Claude reads back: the structuredContent (Claude Code shows only that when present). */
const responseTokens = (body) => estimateTextTokens(JSON.stringify(body));

// ---------------------------------------------------------------------------------------------
// 50 PLAN files in the GSD format, written by local_generate with the shipped `plan` template.
const AREAS = ["auth", "billing", "search", "profile", "feed", "notifications", "settings", "export", "sync", "admin"];
const VERBS = ["Add", "Wire", "Validate", "Cache", "Render", "Persist", "Refactor", "Test"];
const THINGS = [
  "session token",
  "invoice list",
  "query parser",
  "avatar upload",
  "timeline query",
  "push payload",
  "theme switch",
  "CSV writer",
  "conflict resolver",
  "role matrix",
];
const sentence = (area) =>
  `${pick(VERBS)} the ${pick(THINGS)} in src/${area}/ so that ${pick(["callers", "the UI", "the API", "background jobs"])} ${pick(["see consistent data", "fail with a clear error", "stay under 100 ms", "never block the main thread"])}; keep ${pick(["the existing types", "the public API", "the error codes", "the fixtures"])} unchanged and cover it with a test.`;
const planVariables = [];
for (let i = 0; i < FILES; i++) {
  const phaseNo = Math.floor(i / 5) + 1;
  const planNo = (i % 5) + 1;
  const area = AREAS[(phaseNo - 1) % AREAS.length];
  const phase = `${String(phaseNo).padStart(2, "0")}-${area}`;
  const id = (p) => `${String(phaseNo).padStart(2, "0")}-${String(p).padStart(2, "0")}`;
  const files = Array.from(
    { length: 2 + Math.floor(rnd() * 3) },
    (_, k) => `src/${area}/${pick(["service", "store", "routes", "schema", "view", "worker"])}${k}.ts`,
  );
  const wave = planNo <= 2 ? 1 : planNo <= 4 ? 2 : 3;
  const tasks = Array.from({ length: 2 + Math.floor(rnd() * 2) }, (_, k) => ({
    name: `${pick(VERBS)} ${pick(THINGS)}`,
    files: [files[k % files.length]],
    action: `${sentence(area)} ${sentence(area)}`,
    verify: `npm test -- ${area} passes; tsc --noEmit passes`,
    done: `${files[k % files.length]} ${pick(["exports the new function", "handles the empty case", "is covered by tests"])}`,
  }));
  planVariables.push({
    phase,
    plan: String(planNo).padStart(2, "0"),
    wave,
    depends_on: wave === 1 ? [] : [id(planNo - 2)],
    files_modified: files,
    autonomous: rnd() > 0.2,
    requirements: [`${area.toUpperCase()}-0${planNo}`],
    must_haves: {
      truths: [`${area} ${pick(THINGS)} works end to end`, `errors in ${area} carry a code`],
      artifacts: files.slice(0, 2).map((path) => ({
        path,
        provides: `${area} ${pick(THINGS)}`,
        exports: [`${pick(["create", "load", "save"])}${area[0].toUpperCase()}${area.slice(1)}`],
      })),
      key_links: [{ from: files[0], to: files[1], via: "import", pattern: `from "./${files[1].split("/").pop().replace(".ts", ".js")}"` }],
    },
    objective: `${sentence(area)}`,
    purpose: `Phase ${phaseNo} needs ${area} to be dependable before the next wave starts.`,
    output: files.join(", "),
    context: [`src/${area}/README.md`],
    tasks,
    verification: [`npm test -- ${area}`, "tsc --noEmit"],
    success_criteria: [`${area} behaves as the must_haves say`],
  });
}
const generator = await connect({ LOCAL_MODEL_ROOTS: project, LOCAL_MODEL_TOKEN_TRACKING: "false" });
const planPaths = [];
for (const variables of planVariables) {
  const path = `.planning/phases/${variables.phase}/${variables.phase.slice(0, 2)}-${variables.plan}-PLAN.md`;
  await generator.call("local_generate", { task_type: "plan", template: "plan", variables, output_path: path });
  planPaths.push(path);
}
await generator.close();
const planTexts = planPaths.map((p) => readFileSync(join(project, p), "utf8"));
const planBytes = planTexts.map((t) => Buffer.byteLength(t));

// ---------------------------------------------------------------------------------------------
// The server with the tiny model: one server, the engine chosen per call.
const modelPath = join(scratch, "tiny.gguf");
await writeTinyLlamaGguf(modelPath, { contextLength: 8192 });
const server = await connect({
  LOCAL_MODEL_ROOTS: project,
  LOCAL_MODEL_MODEL_PATH: modelPath,
  LOCAL_MODEL_MODEL_THREADS: "1",
  LOCAL_MODEL_MODEL_GPU: "cpu",
  LOCAL_MODEL_MODEL_CONTEXT_SIZE: "8192",
  LOCAL_MODEL_TIMEOUT_MS: "60000",
});

console.log(
  `local-model on ${FILES} generated GSD PLAN files (${n(Math.min(...planBytes))}–${n(Math.max(...planBytes))} bytes, ${n(planBytes.reduce((s, b) => s + b, 0))} in all); ` +
    `fields ${FIELDS.join(", ")}; Node ${process.version}`,
);

// 1. Deterministic vs model, one call per file.
const extractArgs = (file, engine) => ({ task_type: "frontmatter", files: [file], extract: { fields: FIELDS }, engine });
for (let i = 0; i < 10; i++) await server.call("local_extract", extractArgs(planPaths[i % FILES], "deterministic")); // warm-up
const deterministic = { ms: [], tokens: 0 };
for (let rep = 0; rep < REPS; rep++) {
  for (const file of planPaths) {
    const { ms, body } = await server.call("local_extract", extractArgs(file, "deterministic"));
    deterministic.ms.push(ms);
    if (rep === 0) deterministic.tokens += responseTokens(body);
    if (body.engine !== "deterministic" || !body.success)
      throw new Error(`unexpected deterministic answer for ${file}: ${JSON.stringify(body)}`);
  }
}
const load = await server.call("local_extract", extractArgs(planPaths[0], "model")); // loads the model
const model = { ms: [], tokensUsed: 0, retries: 0, unsure: 0, schemaValid: 0 };
for (const file of planPaths) {
  const { ms, body } = await server.call("local_extract", extractArgs(file, "model"));
  if (body.engine !== "model") throw new Error(`unexpected engine for ${file}: ${body.engine}`);
  model.ms.push(ms);
  model.tokensUsed += body.tokens_used;
  model.retries += body.retries;
  if (!body.success) model.unsure += 1;
  if (body.schema_valid) model.schemaValid += 1;
}
const d = stats(deterministic.ms);
const m = stats(model.ms);
console.log("frontmatter extraction, one call per file (in-process SDK client)");
info("deterministic engine (yaml)", `p50 ${fmt(d.p50)}, p95 ${fmt(d.p95)} (${REPS}×${FILES} calls)`);
info(
  "model engine (tiny random GGUF, 1 thread, CPU)",
  `p50 ${fmt(m.p50)}, p95 ${fmt(m.p95)} (${FILES} calls; first call with the model load ${fmt(load.ms)} not counted)`,
);
info(
  "",
  `${n(model.tokensUsed)} model tokens, ${model.retries} retries, ${model.schemaValid}/${FILES} schema-valid, ${model.unsure}/${FILES} below the confidence threshold`,
);
info(
  "latency ratio model / deterministic (p50)",
  `${(m.p50 / d.p50).toFixed(0)}× — a tiny random model: the model path's own cost, not a 7B figure (a 7B is far slower)`,
);

// 2a. Tokens: the PLAN files whole vs the answers.
const planTokens = planTexts.map(estimateTextTokens);
const planBaseline = planTokens.reduce((s, t) => s + t, 0);
console.log("tokens Claude reads: the PLAN files whole vs local_extract's answer (4 chars per token)");
savedFigure("frontmatter, one call per file", planBaseline, deterministic.tokens, `${FILES} files whole`);
// GSD discovers a phase's plans together: one call per phase directory is the usual shape.
const phases = new Map();
for (const path of planPaths) phases.set(dirname(path), [...(phases.get(dirname(path)) ?? []), path]);
let perPhase = 0;
for (const files of phases.values())
  perPhase += responseTokens((await server.call("local_extract", { task_type: "frontmatter", files, extract: { fields: FIELDS } })).body);
savedFigure(`frontmatter, one call per phase (${phases.size} calls)`, planBaseline, perPhase, `${FILES} files whole`);
const batch = await server.call("local_extract", { task_type: "frontmatter", files: planPaths, extract: { fields: FIELDS } });
savedFigure(`frontmatter, one call for all ${FILES} files`, planBaseline, responseTokens(batch.body), `${FILES} files whole`);
info("", `the server's own tokens_saved for that call: ${n(batch.body.tokens_saved)}`);
await server.close();

// ---------------------------------------------------------------------------------------------
// 2b. git status on a generated repository: 400 tracked files, then 40 changes of every kind.
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", LANG: "C", LC_ALL: "C" };
const git = (...args) => execFileSync("git", args, { cwd: repo, env: gitEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
const write = (path, text) => {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
};
const tracked = [];
for (const area of AREAS) {
  for (const kind of ["service", "store", "routes", "schema", "view", "worker", "types", "errors"]) {
    for (const variant of ["", ".test"]) tracked.push(`src/${area}/${kind}${variant}.ts`);
  }
  tracked.push(`src/${area}/README.md`, `docs/${area}/overview.md`, `docs/${area}/decisions.md`);
}
for (let i = 0; tracked.length < 400; i++) tracked.push(`scripts/task-${String(i).padStart(3, "0")}.mjs`);
git("init", "-q", "-b", "main");
git("config", "user.name", "Bench");
git("config", "user.email", "bench@example.com");
for (const path of tracked) write(path, `// ${path}\nexport const value = ${JSON.stringify(path)};\n`);
git("add", ".");
git("commit", "-q", "-m", "Initial commit");
const changed = [...tracked].sort(() => rnd() - 0.5);
const take = (count) => changed.splice(0, count);
for (const path of take(14)) write(path, `${readFileSync(join(repo, path), "utf8")}// changed\n`); // modified
for (const path of take(6)) {
  write(path, `${readFileSync(join(repo, path), "utf8")}// staged\n`);
  git("add", path); // staged
}
for (const path of take(5)) git("rm", "-q", path); // deleted, staged
for (const path of take(3)) rmSync(join(repo, path)); // deleted, not staged
for (const path of take(4)) git("mv", path, path.replace(/(\.test)?\.(ts|md|mjs)$/, "-v2$1.$2")); // renamed
for (const area of AREAS.slice(0, 8)) write(`src/${area}/migration.ts`, "export {};\n"); // untracked
const gitStatus = git("status");
const gitShort = git("status", "--short");
const porcelain = git("status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all");

const gitServer = await connect({ LOCAL_MODEL_ROOTS: repo });
const status = await gitServer.call("local_git", { task_type: "status" });
await gitServer.close();
const s = status.body.data;
const counts = `${s.staged.length} staged, ${s.modified.length} modified, ${s.deleted.length} deleted, ${s.renamed.length} renamed, ${s.untracked.length} untracked`;
console.log(`git status on a generated repository (${tracked.length} files; ${counts})`);
const statusTokens = responseTokens(status.body);
savedFigure("git status", estimateTextTokens(gitStatus), statusTokens, `plain \`git status\`, ${gitStatus.split("\n").length - 1} lines`);
info(
  "  against `git status --short`",
  `${pct(1 - statusTokens / estimateTextTokens(gitShort))} (${n(estimateTextTokens(gitShort))} tokens)`,
);
info(
  "  against porcelain v2 (what the server parses)",
  `${pct(1 - statusTokens / estimateTextTokens(porcelain))} (${n(estimateTextTokens(porcelain))} tokens)`,
);
info("  the server's own tokens_saved (vs --short)", n(status.body.tokens_saved));

console.log(
  `  ${missed === 0 ? "every target MET" : `${missed} target(s) MISSED`}; benchmark took ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`,
);
