// Mochi on examples/mochi (parcel-track, a small TypeScript library), on a temporary copy:
// `mochi index` with the built CLI, then through the real MCP client over stdio: list the tools,
// suggest_pattern for a goal, complete_code at a cursor, read mochi://stats. The model is
// MOCHI_MODEL (+ MOCHI_ADAPTER) when set; otherwise the tiny random test model with fill-in-the-
// middle tokens and a tiny LoRA, written to a temporary directory — its completions are noise, the
// flow (FIM prompt, boundary cut, alternatives, latency in stats) is what the demo shows.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { writeTinyLlamaGguf, writeTinyLoraGguf } from "@local-mcp/core/testing";

const execFileAsync = promisify(execFile);

// Someone adding a fourth carrier to src/carriers/: the cursor is after `matches: (trackingNumber) => `.
const PREFIX = `import { fetchJson } from "../http/fetch-json.js";
import type { TrackingEvent } from "../tracking/tracking-event.js";
import { defineCarrier } from "./define-carrier.js";

/** Parcel lockers: tracking numbers are \`LK\` and 8 digits. */
export const lockerCarrier = defineCarrier({
  name: "locker",
  title: "Parcel lockers",
  matches: (trackingNumber) => `;
const SUFFIX = `,
  fetchEvents: async (trackingNumber, { signal }) => {
    const events = await fetchJson<TrackingEvent[]>(\`https://lockers.example/\${trackingNumber}\`, { signal });
    return events;
  },
});
`;
const GOAL = "add a new carrier that the tracker can find by name";
const GOAL_CONTEXT = PREFIX.slice(PREFIX.indexOf("export const"));

/** A completion on one line: quoted, unprintable characters (a random model writes many) as `·`. */
const clip = (text, n = 60) => {
  const json = JSON.stringify(text.replace(/[^\x20-\x7e\n\t]/g, "·"));
  return json.length <= n ? json : `${json.slice(0, n - 2)}…"`;
};

/** Calls a tool; an error result fails the demo unless `allow` lists its code. */
async function call(client, name, args, allow = []) {
  const result = await client.callTool({ name, arguments: args });
  const code = result.structuredContent?.error?.code;
  if (result.isError && !allow.includes(code))
    throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent ?? result.content)}`);
  return result.structuredContent;
}

/** The model to serve: the user's, or the tiny generated one in `dir`. */
async function chooseModel(dir, log) {
  if (process.env.MOCHI_MODEL) {
    log(
      `model: MOCHI_MODEL=${process.env.MOCHI_MODEL}${process.env.MOCHI_ADAPTER ? ` with MOCHI_ADAPTER=${process.env.MOCHI_ADAPTER}` : " (no MOCHI_ADAPTER: model tools will answer NOT_READY)"}`,
    );
    return { env: {}, tiny: false };
  }
  const model = join(dir, "tiny-fim.gguf");
  const adapter = join(dir, "tiny-lora.gguf");
  await writeTinyLlamaGguf(model, { fim: true });
  await writeTinyLoraGguf(adapter);
  log("model: using a tiny random test model (FIM tokens) + tiny LoRA; set MOCHI_MODEL (and MOCHI_ADAPTER) for a real one");
  // Tiny models run fastest on one CPU thread.
  return {
    env: { MOCHI_MODEL: model, MOCHI_ADAPTER: adapter, MOCHI_GPU: "cpu", MOCHI_THREADS: "1", MOCHI_CONTEXT_SIZE: "2048" },
    tiny: true,
  };
}

export async function run({ root, spawn, log }) {
  const scratch = mkdtempSync(join(tmpdir(), "mochi-demo-"));
  const repo = join(scratch, "parcel-track");
  cpSync(join(root, "examples/mochi"), repo, { recursive: true });
  let proc;
  try {
    const indexed = await execFileAsync(process.execPath, [join(root, "apps/mochi-server/dist/cli.js"), "index", repo, "--quiet"]);
    log(`mochi index <copy of examples/mochi> → ${indexed.stdout.trim().replaceAll(`${scratch}/`, "").replace(/\n/g, "; ")}`);

    const model = await chooseModel(scratch, log);
    const started = Date.now();
    proc = await spawn({
      cwd: repo,
      env: { ...model.env, MOCHI_CATALOG: join(repo, ".mochi", "catalog.json"), LOCAL_MCP_LOG_LEVEL: "info" },
      // Ready when it serves stdio and the background preload has ended (loaded, failed or not configured): no sleeps.
      readyPattern:
        /ready on stdio[\s\S]*(model ready|model load failed|model tools are not ready)|(model ready|model load failed|model tools are not ready)[\s\S]*ready on stdio/,
      readyTimeoutMs: model.tiny ? 30_000 : 300_000,
    });
    const { client } = proc;
    const { tools } = await client.listTools();
    const preloaded = model.tiny || Boolean(process.env.MOCHI_ADAPTER);
    log(
      `connected over stdio in ${Date.now() - started} ms${preloaded ? " (model loaded in the background first)" : ""}; ${tools.length} tools: ${tools.map((t) => t.name).join(", ")}`,
    );

    const suggested = await call(client, "suggest_pattern", { goal: GOAL, context: GOAL_CONTEXT, limit: 3, response_level: "full" });
    log(`suggest_pattern "${GOAL}" (+ the new carrier's code) → ranked by ${suggested.ranked_by} in ${suggested.inference_time_ms} ms:`);
    if (suggested.note) log(`  note: ${suggested.note}`);
    for (const p of suggested.patterns) {
      const scores = `embeddings ${p.embedding_score.toFixed(3)}, model ${p.model_score === null ? "—" : p.model_score.toFixed(2)}`;
      log(`  ${p.relevance.toFixed(3)}  ${p.name.padEnd(19)} ${String(p.occurrences).padStart(2)}×  ${p.uri}  (${scores})`);
    }
    const top = suggested.patterns[0];
    if (!top) throw new Error("suggest_pattern returned no pattern");
    const [file, ...code] = top.example.split("\n");
    log(`  example of ${top.name} (${file.replace(/^\/\/ /, "")}): ${code.find((line) => line.trim() !== "")?.trim()} …`);

    // Your own model may be unconfigured (NOT_READY) or slow on this machine (TIMEOUT): shown, not a failure.
    const allowed = model.tiny ? [] : ["NOT_READY", "TIMEOUT"];
    const completed = await call(
      client,
      "complete_code",
      { prefix: PREFIX, suffix: SUFFIX, language: "typescript", max_tokens: 48, max_alternatives: 3, response_level: "standard" },
      allowed,
    );
    if (completed.error) {
      log(`complete_code → ${completed.error.code}: ${completed.error.message}`);
    } else {
      log(
        `complete_code at "matches: (trackingNumber) => ▮" → ${clip(completed.completion)} ` +
          `(mode ${completed.mode}, cut at ${completed.boundary}, ${completed.alternatives.length} alternatives, ${completed.inference_time_ms} ms)`,
      );
      if (model.tiny) log("  (the tiny test model's weights are random: its completion is noise, not parcel-track code)");
    }

    const statsRead = await client.readResource({ uri: "mochi://stats" });
    const stats = JSON.parse(statsRead.contents[0].text);
    const { catalog, inference } = stats;
    log(
      `mochi://stats → catalog ${catalog.version}: ${catalog.files} files, ${catalog.patterns} patterns, ${catalog.conventions} conventions, ` +
        `${catalog.examples} examples; model ${stats.model.readiness.state}, fill-in-the-middle ${stats.model.fill_in_the_middle}`,
    );
    log(
      `  latency: ${Object.entries(inference)
        .map(([tool, s]) => `${tool} p50 ${s.p50_ms} ms / p95 ${s.p95_ms} ms (${s.count})`)
        .join("; ")}`,
    );

    const naming = await client.readResource({ uri: "mochi://conventions/naming" });
    const summary = naming.contents[0].text
      .split("\n")
      .find((line) => line.trim() !== "" && !line.startsWith("#") && !line.startsWith("<!--"));
    log(`mochi://conventions/naming → ${summary}`);

    proc.assertCleanStdout();
    log(`stdout carried only JSON-RPC (${proc.stdoutLines.length} lines)`);
  } finally {
    await proc?.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
