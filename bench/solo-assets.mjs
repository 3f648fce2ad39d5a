// Benchmark (issue #6, part 8): solo-assets.
//   1. Save with a warm environment: FunctionLibrary.save (the quality gate — ruff, mypy, the test
//      run in the pooled environment — then the embedding and the commit) of examples/solo-assets'
//      slugify into a fresh library, critic off. The first save creates the environment and mypy's
//      cache (reported); then the same function is saved again BENCH_SOLO_SAVES times (≥ 10).
//      Target: p50 ≤ 1 s. The gate and the commit (embed + one transaction) are shown apart.
//   2. Search latency at 10k and 100k functions with 768-dimension vectors: the app's real search
//      path, FunctionLibrary.search (query embedding, the in-memory index brought in step with the
//      file, its vector and keyword rankings, reciprocal rank fusion, the records of the hits),
//      through the domain API, on a library opened the way every process opens it. Target: p50 ≤
//      50 ms at 100k. The first search of a process loads the index (reported apart). Then the
//      same stages timed one by one with the app's own pieces (where the time goes), a search
//      right after another writer changed one function, and MCP round trips (search_functions
//      through solo-assets-mcp over stdio) on the 100k library.
//   3. First search of a new process (issue 19): a fresh `node` process opens the library and
//      searches once, side by side — the reference loads the index from the library (the snapshot
//      beside it removed first; that process then persists it), the other restores the persisted
//      index (index-persistence.ts) and reads only newer revisions. Then 20 more searches in the
//      second process. Target at 100k: first search ≤ 1 s, later p50 ≤ 50 ms.
// The libraries are generated once with INSERT … SELECT through the app's own LibraryDatabase and
// schema (a commit per function through FunctionLibrary takes ~70 ms: 100k of them would take
// two hours) and kept in the OS temp dir under a versioned name, reused by later runs. Each generated
// function has a name, description and keyword terms drawn from a programming vocabulary with a
// Zipf-like spread (so keyword matches are realistic), the gate report and code of the real save
// from part 1, and a random 768-dimension vector stored under the embedder's model name (the
// latency of a brute-force scan does not depend on the values). Queries are embedded with the
// built-in local embedder at 768 dimensions (Gemini's default size; a Gemini call would add a
// network round trip the benchmark cannot measure offline).
// Imports the built dist files: build first (`pnpm bench` does). Sizes: BENCH_SOLO_SIZES
// (default 10000,100000), BENCH_SOLO_QUERIES (default 60), BENCH_SOLO_SAVES (default 12).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnStdioServer } from "../packages/core/dist/testing/index.js";
import { loadSoloAssetsConfig } from "../apps/solo-assets-server/dist/config.js";
import { openSoloServices } from "../apps/solo-assets-server/dist/services.js";
import { keywordTerms } from "../apps/solo-assets-server/dist/domain/search/keyword-terms.js";
import { functionSummariesByIds, storeEmbedding } from "../apps/solo-assets-server/dist/domain/library/function-repository.js";
import { SearchIndex } from "../apps/solo-assets-server/dist/domain/search/search-index.js";
import { indexSnapshotPath } from "../apps/solo-assets-server/dist/domain/search/index-snapshot.js";
import { execFileSync } from "node:child_process";
import { reciprocalRankFusion } from "../apps/solo-assets-server/dist/domain/search/rank-fusion.js";
import { LibraryDatabase, varcharList } from "../apps/solo-assets-server/dist/domain/storage/library-database.js";
import { migrateLibrarySchema } from "../apps/solo-assets-server/dist/domain/storage/schema.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MCP = join(ROOT, "apps/solo-assets-server/dist/mcp.js");
const SIZES = (process.env.BENCH_SOLO_SIZES ?? "10000,100000").split(",").map(Number);
const QUERIES_PER_SIZE = Number(process.env.BENCH_SOLO_QUERIES ?? 60);
const SAVES = Math.max(10, Number(process.env.BENCH_SOLO_SAVES ?? 12));
const DIMENSION = 768;
const DATASET_VERSION = 2; // bump when the generator or the app's schema changes
const TARGETS = { searchP50Ms: 50, saveP50Ms: 1000, firstSearchMs: 1000 };

const benchStarted = performance.now();
const loadAtStart = loadavg()[0];
const scratch = mkdtempSync(join(tmpdir(), "bench-solo-assets-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true })); // also when a check throws

const now = () => performance.now();
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), min: s[0], max: s[s.length - 1] };
};
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
const verdict = (ok) => (ok ? "MET" : "MISSED");
const signal = new AbortController().signal;

/** The configuration every part uses: the built-in embedder at 768 dimensions, critic off, no key. */
function benchEnv(dbPath, envsDir) {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? scratch,
    SOLO_DB_PATH: dbPath,
    SOLO_ENVS_DIR: envsDir,
    SOLO_EMBEDDER: "local",
    SOLO_EMBEDDING_DIMENSION: String(DIMENSION),
    SOLO_CRITIC: "off",
    LOCAL_MCP_LOG_LEVEL: "warn",
  };
}

// ── 1. save with a warm environment ─────────────────────────────────────────────────────────────
const example = JSON.parse(readFileSync(join(ROOT, "examples/solo-assets/functions.json"), "utf8")).find((e) => e.name === "slugify");
const saveRequest = {
  name: example.name,
  code: readFileSync(join(ROOT, "examples/solo-assets", example.file), "utf8"),
  description: example.description,
  tags: example.tags,
  dependencies: [],
  testCases: JSON.parse(readFileSync(join(ROOT, "examples/solo-assets", example.tests), "utf8")),
  skipTests: false,
};
const saveServices = openSoloServices(loadSoloAssetsConfig(benchEnv(join(scratch, "save.duckdb"), join(scratch, "envs")), process.cwd()));
const saves = { total: [], gate: [], commit: [] };
let firstSave;
let template;
try {
  for (let i = 0; i <= SAVES; i++) {
    const started = now();
    const saved = await saveServices.library.save(saveRequest, { signal });
    const total = now() - started;
    if (saved.gate.status !== "active")
      throw new Error(`the save of slugify should pass the gate: ${JSON.stringify(saved.gate.rejection)}`);
    const test = saved.gate.steps[2];
    if (i === 0) {
      firstSave = { total, environment: test.environment };
      template = saved.function;
      continue;
    }
    if (!test.environment?.reused) throw new Error("a second save should reuse the pooled environment");
    saves.total.push(total);
    saves.gate.push(saved.gate.duration_ms);
    saves.commit.push(total - saved.gate.duration_ms);
  }
} finally {
  await saveServices.dispose();
}
const tools = `${template.metadata.gate.steps[0].tool}, ${template.metadata.gate.steps[1].tool}`;

// ── 2. search at 10k and 100k ───────────────────────────────────────────────────────────────────
const VOCABULARY = (
  "parse format convert string text date time duration timestamp timezone json yaml csv xml html url path file " +
  "directory read write load save cache hash checksum encode decode base64 utf8 unicode slug title case snake camel " +
  "split join chunk batch merge flatten group sort filter unique dedupe count sum average median percentile round " +
  "clamp normalize scale random sample shuffle retry backoff timeout rate limit throttle queue stack tree graph " +
  "node edge path shortest distance levenshtein fuzzy match search index token tokenize word sentence paragraph " +
  "email phone address validate sanitize escape quote strip trim pad wrap truncate compress gzip zip archive " +
  "http request response header cookie query param env config setting secret password uuid id counter " +
  "matrix vector dot product norm cosine similarity prime fibonacci factorial gcd binary search bisect interval " +
  "range overlap calendar weekday month year leap iso epoch seconds minutes hours days bytes size human readable " +
  "color rgb hex image pixel resize crop thumbnail column row table dataframe pivot aggregate window rolling " +
  "diff patch compare equal deep copy nested dict list set tuple key lookup default fallback safe optional " +
  "log level debug error exception traceback warning message notify send receive socket port host ip network " +
  "currency money price tax discount invoice order customer user account permission role token jwt sign verify"
).split(" ");
const VOCAB_TERMS = VOCABULARY.map((word) => keywordTerms(word)[0] ?? word);
const QUERIES = [
  "parse an ISO date string into a datetime",
  "convert a title to a url slug",
  "split a list into batches of a fixed size",
  "edit distance between two strings for fuzzy matching",
  "retry a request with exponential backoff",
  "human readable file size from bytes",
  "validate an email address",
  "flatten a nested dict into dotted keys",
  "cosine similarity of two vectors",
  "rolling average over a window",
  "compute the median of a list of numbers",
  "read a csv file into rows",
  "format a duration in seconds as hours and minutes",
  "check whether two date ranges overlap",
  "sanitize html and escape quotes",
  "generate a random uuid",
  "verify a jwt token signature",
  "gzip compress a file",
  "convert camel case to snake case",
  "deduplicate a list keeping order",
];

/**
 * The generated library of `n` functions, kept under the OS temp dir and reused while the dataset
 * version and the embedder's model name match. Returns its path and how long making it took (0
 * when reused).
 */
async function dataset(n, model) {
  const dir = join(tmpdir(), `solo-assets-bench-v${DATASET_VERSION}`);
  const dbPath = join(dir, `library-${n}-${DIMENSION}.duckdb`);
  const marker = `${dbPath}.ready.json`;
  const expected = { version: DATASET_VERSION, n, dimension: DIMENSION, model };
  if (existsSync(marker) && existsSync(dbPath) && JSON.stringify(JSON.parse(readFileSync(marker, "utf8"))) === JSON.stringify(expected)) {
    return { dbPath, builtMs: 0 };
  }
  mkdirSync(dir, { recursive: true });
  for (const stale of [dbPath, `${dbPath}.wal`, marker]) rmSync(stale, { force: true });
  const started = now();
  const db = new LibraryDatabase(dbPath, { lockTimeoutMs: 30_000, migrate: migrateLibrarySchema });
  const params = {
    n,
    words: varcharList(VOCABULARY),
    terms: varcharList(VOCAB_TERMS),
    vocab: VOCABULARY.length,
    code: template.code,
    signature: template.signature,
    docstring: template.docstring,
    test_cases: JSON.stringify(template.testCases),
    metadata: JSON.stringify({ ...template.metadata, embedding: { model, dimension: DIMENSION } }),
    at: new Date().toISOString(),
  };
  // Word picks are log-uniform over the vocabulary (a Zipf-like spread): a few words are common,
  // most are rare — as in real descriptions. 10 words per function, the first three make its name.
  await db.write(async (session) => {
    await session.run(
      `INSERT INTO functions (name, version, status, code, description, signature, docstring, tags, dependencies,
         test_cases, metadata, search_terms, name_terms, created_at, updated_at)
       SELECT array_to_string(list_transform(picks[1:3], lambda p: $words[p]), '_') || '_' || i AS name,
              1,
              CASE WHEN i % 20 = 0 THEN 'broken' WHEN i % 20 = 1 THEN 'unverified' ELSE 'active' END,
              $code,
              array_to_string(list_transform(picks, lambda p: $words[p]), ' '),
              $signature, $docstring,
              [$words[picks[4]], $words[picks[7]]],
              []::VARCHAR[],
              $test_cases, $metadata,
              list_distinct(list_transform(picks, lambda p: $terms[p])),
              list_distinct(list_transform(picks[1:3], lambda p: $terms[p])),
              $at, $at
       FROM (SELECT i, list_transform(range(10), lambda j: least($vocab, greatest(1,
                      floor(pow($vocab + 1, (hash(i, j) % 1000000) / 1000000.0))::INTEGER))) AS picks
             FROM range($n) t(i))`,
      params,
    );
    await session.run(
      `INSERT INTO versions (name, version, function_id, status, code, submitted_code, description, signature, tags,
         dependencies, test_cases, metadata, created_at)
       SELECT name, 1, id, status, code, code, description, signature, tags, dependencies, test_cases, metadata, created_at
       FROM functions`,
    );
    await session.run(`SELECT setseed(0.42)`);
    await session.run(
      `INSERT INTO embeddings (function_id, model_name, dimension, vector, text_hash, created_at)
       SELECT id, $model, $dimension, list_transform(range($dimension), lambda j: (random() * 2 - 1)::FLOAT), 'bench', $at
       FROM functions`,
      { model, dimension: DIMENSION, at: params.at },
    );
  });
  writeFileSync(marker, JSON.stringify(expected));
  return { dbPath, builtMs: now() - started };
}

/**
 * Where one search's time goes, stage by stage, with the app's own pieces in the order
 * FunctionLibrary.search runs them: the query embedding, attaching the file (LibraryDatabase.read
 * attaches it afresh for every operation), bringing the in-memory index in step (a fingerprint
 * query when nothing changed), the vector and keyword rankings from memory, fusion and the hits'
 * records, and closing the file. Also the index's first load (once per process).
 */
async function breakdown(dbPath, embedder, rounds) {
  const db = new LibraryDatabase(dbPath, { lockTimeoutMs: 30_000, migrate: migrateLibrarySchema });
  const filter = { statuses: ["active", "unverified"] };
  const index = new SearchIndex(embedder.model, embedder.dimension);
  const loadStarted = now();
  await db.read((session) => index.sync(session));
  const firstLoad = now() - loadStarted;
  const stages = { embed: [], open: [], sync: [], rank: [], records: [], close: [] };
  for (let i = 0; i < rounds; i++) {
    const query = QUERIES[(i * 7) % QUERIES.length];
    let t = now();
    const lap = (stage) => {
      const at = now();
      stages[stage].push(at - t);
      t = at;
    };
    const [vector] = await embedder.embed([query], { task: "query", signal });
    lap("embed");
    await db.read(async (session) => {
      lap("open");
      await index.sync(session);
      lap("sync");
      const ranking = index.rank({ vector, terms: keywordTerms(query), filter, limit: 50 });
      lap("rank");
      const fused = reciprocalRankFusion([ranking.byVector.map((c) => c.id), ranking.byKeyword.map((c) => c.id)]).slice(0, 5);
      await functionSummariesByIds(
        session,
        fused.map((f) => f.id),
      );
      lap("records");
    });
    lap("close");
  }
  // Another writer re-embeds one function; the next search's sync reads that one row.
  const afterWrite = [];
  for (let i = 0; i < 5; i++) {
    const vector = Float32Array.from({ length: embedder.dimension }, (_, j) => Math.sin(i * 31 + j));
    await db.write((session) =>
      storeEmbedding(session, { functionId: 1 + i, model: embedder.model, vector, textHash: "bench", at: new Date().toISOString() }),
    );
    const started = now();
    await db.read((session) => index.sync(session));
    afterWrite.push(now() - started);
  }
  return {
    firstLoad,
    afterWrite: stats(afterWrite).p50,
    stages: Object.fromEntries(Object.entries(stages).map(([stage, xs]) => [stage, stats(xs).p50])),
  };
}

/**
 * One fresh process: opens the library's services, searches once (timed from before opening), then
 * `later` more; disposes (which waits for a snapshot write it started). Returns its timings.
 */
function freshProcess(dbPath, later) {
  const script = `
    const t0 = performance.now();
    const { loadSoloAssetsConfig } = await import(${JSON.stringify(join(ROOT, "apps/solo-assets-server/dist/config.js"))});
    const { openSoloServices } = await import(${JSON.stringify(join(ROOT, "apps/solo-assets-server/dist/services.js"))});
    const env = JSON.parse(process.argv[1]);
    const queries = JSON.parse(process.argv[2]);
    const signal = new AbortController().signal;
    const services = openSoloServices(loadSoloAssetsConfig(env, process.cwd()));
    const t1 = performance.now();
    const first = await services.library.search({ query: queries[0], limit: 5 }, signal);
    const firstMs = performance.now() - t1;
    const laterMs = [];
    for (let i = 1; i <= ${later}; i++) {
      const t = performance.now();
      await services.library.search({ query: queries[i % queries.length], limit: 5 }, signal);
      laterMs.push(performance.now() - t);
    }
    const t2 = performance.now();
    await services.dispose();
    console.log(JSON.stringify({ importMs: t1 - t0, firstMs, hits: first.hits.length, laterMs, disposeMs: performance.now() - t2 }));`;
  const out = execFileSync(
    process.execPath,
    ["--input-type=module", "-e", script, JSON.stringify(benchEnv(dbPath, join(scratch, "envs"))), JSON.stringify(QUERIES)],
    {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(out.trim().split("\n").pop());
}

const searches = [];
let mcp;
// The embedder's model name decides which vectors a search compares: ask the app for it.
const probe = openSoloServices(loadSoloAssetsConfig(benchEnv(join(scratch, "probe.duckdb"), join(scratch, "envs")), process.cwd()));
const embedder = probe.embedder;
for (const n of SIZES) {
  const { dbPath, builtMs } = await dataset(n, embedder.model);
  // The reference first: no persisted index (a run before this one may have left it).
  const snapshot = indexSnapshotPath(dbPath, embedder.model, DIMENSION);
  rmSync(snapshot, { force: true });
  const reference = freshProcess(dbPath, 0);
  if (!existsSync(snapshot)) throw new Error(`the first process at ${n} left no persisted index at ${snapshot}`);
  const restored = freshProcess(dbPath, 20);
  const services = openSoloServices(loadSoloAssetsConfig(benchEnv(dbPath, join(scratch, "envs")), process.cwd()));
  const library = services.library;
  const counts = await library.counts();
  const vectors = counts.embeddings.find((e) => e.model === embedder.model && e.dimension === DIMENSION)?.count ?? 0;
  if (counts.functions !== n || vectors !== n) throw new Error(`the ${n} library has ${counts.functions} functions and ${vectors} vectors`);
  const times = [];
  let first = 0;
  for (let i = 0; i < QUERIES_PER_SIZE + 5; i++) {
    const query = QUERIES[i % QUERIES.length];
    const started = now();
    const outcome = await library.search({ query, limit: 5 }, signal);
    const elapsed = now() - started;
    if (outcome.hits.length !== 5) throw new Error(`"${query}" returned ${outcome.hits.length} hits at ${n}`);
    if (i === 0) first = elapsed;
    if (i >= 5) times.push(elapsed); // the first (the index's load) and four more warm the OS file cache and the code paths
  }
  await services.dispose();
  const { firstLoad, afterWrite, stages } = await breakdown(dbPath, embedder, 10);
  searches.push({
    n,
    builtMs,
    bytes: statSync(dbPath).size,
    snapshotBytes: statSync(snapshot).size,
    first,
    firstLoad,
    afterWrite,
    stages,
    reference,
    restored: { ...restored, later: stats(restored.laterMs) },
    ...stats(times),
  });

  if (n === Math.max(...SIZES)) {
    // MCP round trips on the largest library: solo-assets-mcp over stdio, the real SDK client.
    const proc = await spawnStdioServer({
      command: process.execPath,
      args: [MCP],
      env: benchEnv(dbPath, join(scratch, "envs")),
      readyTimeoutMs: 30_000,
    });
    try {
      const calls = [];
      for (let i = 0; i < 30; i++) {
        const started = now();
        const result = await proc.client.callTool({
          name: "search_functions",
          arguments: { query: QUERIES[i % QUERIES.length], limit: 5 },
        });
        calls.push(now() - started);
        if (result.isError || result.structuredContent.count !== 5)
          throw new Error(`search_functions failed: ${JSON.stringify(result.structuredContent)}`);
      }
      proc.assertCleanStdout();
      mcp = { n, first: calls[0], ...stats(calls.slice(5)) }; // the first loads the index; four more warm the server's code paths
    } finally {
      await proc.close();
    }
  }
}

await probe.dispose();

// ── report ──────────────────────────────────────────────────────────────────────────────────────
const save = stats(saves.total);
const gate = stats(saves.gate);
const commit = stats(saves.commit);
console.log(
  `solo-assets (Node ${process.version}, ${availableParallelism()} CPUs, load ${loadAtStart.toFixed(2)} at start; ` +
    `embedder ${embedder.model}, critic off; gate tools: ${tools})`,
);
console.log(`save of slugify (4 test cases), critic off:`);
console.log(
  `  first save (creates the environment with ${firstSave.environment?.installer ?? "?"} in ${ms(firstSave.environment?.install_ms ?? 0)}, ` +
    `cold mypy cache): ${ms(firstSave.total)}`,
);
console.log(
  `  warm environment, ${saves.total.length} saves: p50 ${ms(save.p50)} p95 ${ms(save.p95)} ` +
    `(gate p50 ${ms(gate.p50)}; embed + commit p50 ${ms(commit.p50)})`,
);
console.log(`search_functions path (FunctionLibrary.search, limit 5; ${QUERIES_PER_SIZE} queries after 5 warm-up):`);
for (const s of searches) {
  const built = s.builtMs > 0 ? `generated in ${(s.builtMs / 1000).toFixed(1)} s` : "reused";
  console.log(
    `  ${String(s.n).padStart(6)} functions × ${DIMENSION}-d: p50 ${ms(s.p50)} p95 ${ms(s.p95)} max ${ms(s.max)} ` +
      `(library ${(s.bytes / 2 ** 20).toFixed(0)} MiB, ${built})`,
  );
  console.log(
    `         stages, p50 of 10: ${Object.entries(s.stages)
      .map(([stage, x]) => `${stage} ${ms(x)}`)
      .join(", ")}`,
  );
  console.log(
    `         first search in the bench process (persisted index) ${ms(s.first)}; index load from the library ${ms(s.firstLoad)}; ` +
      `index sync after another writer changed one function: p50 ${ms(s.afterWrite)}`,
  );
}
console.log(`first search of a new process (node started, services opened, one search; then 20 more):`);
for (const s of searches) {
  const r = s.restored;
  console.log(
    `  ${String(s.n).padStart(6)}: persisted index ${ms(r.firstMs)} (then p50 ${ms(r.later.p50)} p95 ${ms(r.later.p95)}; ` +
      `snapshot ${(s.snapshotBytes / 2 ** 20).toFixed(0)} MiB) — reference, index loaded from the library: ${ms(s.reference.firstMs)} ` +
      `(${(s.reference.firstMs / r.firstMs).toFixed(1)}×; its dispose waited ${ms(s.reference.disposeMs)} for the snapshot write)`,
  );
}
if (mcp)
  console.log(
    `  MCP round trip at ${mcp.n} (stdio, search_functions): first ${ms(mcp.first)}, then (after 5) p50 ${ms(mcp.p50)} p95 ${ms(mcp.p95)}`,
  );
const largest = searches.find((s) => s.n === 100_000);
if (largest) {
  console.log(
    `  search p50 at 100k: ${ms(largest.p50)} (target ≤ ${TARGETS.searchP50Ms} ms) ${verdict(largest.p50 <= TARGETS.searchP50Ms)}`,
  );
}
if (largest) {
  const r = largest.restored;
  console.log(
    `  first search of a new process at 100k: ${ms(r.firstMs)} (target ≤ ${TARGETS.firstSearchMs} ms) ${verdict(r.firstMs <= TARGETS.firstSearchMs)}; ` +
      `later p50 ${ms(r.later.p50)} (target ≤ ${TARGETS.searchP50Ms} ms) ${verdict(r.later.p50 <= TARGETS.searchP50Ms)}`,
  );
}
console.log(`  save p50, warm environment: ${ms(save.p50)} (target ≤ ${TARGETS.saveP50Ms} ms) ${verdict(save.p50 <= TARGETS.saveP50Ms)}`);
console.log(
  `  (datasets kept in ${join(tmpdir(), `solo-assets-bench-v${DATASET_VERSION}`)}; total ${((now() - benchStarted) / 1000).toFixed(0)} s)`,
);
