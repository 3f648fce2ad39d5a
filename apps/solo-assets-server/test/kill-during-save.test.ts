/**
 * kill -9 in the middle of solo saves. A real process (fixtures/save-loop-child.mjs, the built
 * dist/ services) saves functions into one library in a loop — new functions and new versions of
 * three shared ones — and tells the test over IPC when a save is about to open its transaction
 * ("storing") and when it is committed ("ack"). The test SIGKILLs it, round after round on the
 * same library file: once at its first save on a fresh file (schema creation), then at a random
 * delay after a "storing" message (so most kills land while the write transaction is open, or
 * during COMMIT and the checkpoint on close), and once at a random time after start.
 *
 * After each kill the test opens the library as a restarted process would and checks:
 *  - every acknowledged save is there: its version row (pointing to its function), its function
 *    row at that version or later, and a vector of the current model;
 *  - nothing is half-written: every function row has the version row of its version, every
 *    vector belongs to an existing function, every version row points to its function, version
 *    numbers run 1..n without gaps, and every function has exactly one vector, written by its
 *    latest save (a save stores the vector with the rows, so a save split over two transactions
 *    would leave a function without its vector, or with the previous save's, when a kill falls
 *    between them — with the transaction split in dist/, this test fails in most runs);
 *  - the library still accepts saves (a save from the test process, then the next round's child);
 *  - search, which reads the same rows, finds the last acknowledged function.
 * Rounds go on (12 at least, 18 at most) until two kills have landed with a save in flight (its
 * "storing" seen, none of its rows there afterwards), and at least one must have, so the
 * interesting window is hit whatever the machine's timing. Saves run through commit(), not the
 * quality gate (fixtures/save-loop-child.mjs says why); the gate runs before the transaction
 * and writes nothing.
 */
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { SoloServices } from "../src/services.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { tempLibrary, testEnv, testServices } from "./helpers/test-library.js";

const CHILD = fileURLToPath(new URL("./fixtures/save-loop-child.mjs", import.meta.url));
const BUILT = fileURLToPath(new URL("../dist/services.js", import.meta.url));
const MIN_ROUNDS = 12;
const MAX_ROUNDS = 18;
const IN_FLIGHT_KILLS_WANTED = 2;

type ChildMessage =
  | { type: "ready"; pid: number }
  | { type: "storing"; name: string }
  | { type: "ack"; name: string; version: number; id: number }
  | { type: "done" };

interface Ack {
  name: string;
  version: number;
  id: number;
}

/** How a round kills its child. */
type KillPlan = { at: "first-storing" } | { at: "storing"; afterAcks: number; delayMs: number } | { at: "timer"; delayMs: number };

interface RoundResult {
  acks: Ack[];
  /** The save that was being stored when the kill came, if any. */
  inFlight: string | undefined;
  signal: NodeJS.Signals | null;
}

const library = tempLibrary();
afterAll(() => library.remove());

function runRound(prefix: string, plan: KillPlan): Promise<RoundResult> {
  const child: ChildProcess = fork(CHILD, [prefix, "100000"], { env: testEnv(library.dbPath), stdio: ["ignore", "ignore", "pipe", "ipc"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const acks: Ack[] = [];
  let storing: string | undefined;
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    child.kill("SIGKILL");
  };
  child.on("message", (message: ChildMessage) => {
    if (killed) return;
    if (message.type === "ready" && plan.at === "timer") setTimeout(kill, plan.delayMs);
    if (message.type === "ack") {
      acks.push({ name: message.name, version: message.version, id: message.id });
      storing = undefined;
    }
    if (message.type === "storing") {
      storing = message.name;
      if (plan.at === "first-storing") kill();
      else if (plan.at === "storing" && acks.length >= plan.afterAcks) setTimeout(kill, plan.delayMs);
    }
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code, signal) => {
      if (!killed) reject(new Error(`the saving process exited by itself (code ${code}, signal ${signal}):\n${stderr}`));
      else resolve({ acks, inFlight: storing, signal });
    });
  });
}

async function query(services: SoloServices, sql: string): Promise<Record<string, unknown>[]> {
  return services.library.db.read((session) => session.all(sql));
}

/** Every consistency rule of the library; returns the offending rows by rule. */
async function inconsistencies(services: SoloServices): Promise<Record<string, unknown[]>> {
  const { model, dimension } = services.embedder;
  const found: Record<string, unknown[]> = {
    "function without the version row of its version": await query(
      services,
      `SELECT f.name, f.version FROM functions f
       WHERE NOT EXISTS (SELECT 1 FROM versions v WHERE v.name = f.name AND v.version = f.version AND v.function_id = f.id)`,
    ),
    "function whose version is not its latest": await query(
      services,
      `SELECT f.name, f.version FROM functions f WHERE f.version <> (SELECT max(v.version) FROM versions v WHERE v.name = f.name)`,
    ),
    "version pointing to no function of its name": await query(
      services,
      `SELECT v.name, v.version FROM versions v WHERE NOT EXISTS (SELECT 1 FROM functions f WHERE f.id = v.function_id AND f.name = v.name)`,
    ),
    "version numbers with gaps": await query(
      services,
      `SELECT name, count(*) AS n, min(version) AS lo, max(version) AS hi FROM versions GROUP BY name HAVING min(version) <> 1 OR max(version) <> count(*)`,
    ),
    "vector of a missing function": await query(
      services,
      `SELECT e.function_id FROM embeddings e WHERE NOT EXISTS (SELECT 1 FROM functions f WHERE f.id = e.function_id)`,
    ),
    "function without exactly one vector of the model": await query(
      services,
      `SELECT f.name, (SELECT count(*) FROM embeddings e WHERE e.function_id = f.id AND e.model_name = '${model}') AS n FROM functions f
       WHERE (SELECT count(*) FROM embeddings e WHERE e.function_id = f.id AND e.model_name = '${model}') <> 1`,
    ),
    // A save writes its vector with the same timestamp as the rows (no reindex runs here).
    "vector not written by the function's latest save": await query(
      services,
      `SELECT f.name FROM functions f JOIN embeddings e ON e.function_id = f.id AND e.model_name = '${model}' WHERE e.created_at <> f.updated_at`,
    ),
    "vector of the wrong length": await query(
      services,
      `SELECT function_id, len(vector) AS n FROM embeddings WHERE len(vector) <> ${dimension} OR dimension <> ${dimension}`,
    ),
  };
  return Object.fromEntries(Object.entries(found).filter(([, rows]) => rows.length > 0));
}

/** The acknowledged saves missing anything; empty when all are complete. */
async function missingAcks(services: SoloServices, acks: readonly Ack[]): Promise<string[]> {
  const versions = new Set(
    (await query(services, `SELECT name, version, function_id FROM versions`)).map(
      (r) => `${String(r.name)}@${String(r.version)}#${String(r.function_id)}`,
    ),
  );
  const functions = new Map(
    (await query(services, `SELECT name, id, version FROM functions`)).map((r) => [
      String(r.name),
      { id: Number(r.id), version: Number(r.version) },
    ]),
  );
  const vectors = new Set(
    (await query(services, `SELECT function_id FROM embeddings WHERE model_name = '${services.embedder.model}'`)).map((r) =>
      Number(r.function_id),
    ),
  );
  const missing: string[] = [];
  for (const ack of acks) {
    const current = functions.get(ack.name);
    if (!versions.has(`${ack.name}@${ack.version}#${ack.id}`)) missing.push(`${ack.name} v${ack.version}: no version row`);
    if (!current || current.id !== ack.id || current.version < ack.version)
      missing.push(`${ack.name} v${ack.version}: function row ${JSON.stringify(current)}`);
    if (!vectors.has(ack.id)) missing.push(`${ack.name} v${ack.version}: no vector`);
  }
  return missing;
}

function planFor(round: number): KillPlan {
  if (round === 0) return { at: "first-storing" };
  if (round === 3) return { at: "timer", delayMs: 100 + Math.floor(Math.random() * 1500) };
  return { at: "storing", afterAcks: 1 + Math.floor(Math.random() * 8), delayMs: Math.floor(Math.random() * 90) };
}

describe("kill -9 during solo saves", () => {
  it("keeps every acknowledged save, leaves no half-written rows, and accepts saves afterwards", async () => {
    expect(existsSync(BUILT), `${BUILT} is missing: build the app first (pnpm --filter @local-mcp/solo-assets-server build)`).toBe(true);
    const acked: Ack[] = [];
    let inFlightKills = 0;
    const history: string[] = [];
    for (let round = 0; round < MAX_ROUNDS && (round < MIN_ROUNDS || inFlightKills < IN_FLIGHT_KILLS_WANTED); round++) {
      const plan = planFor(round);
      const result = await runRound(`r${round}`, plan);
      expect(result.signal).toBe("SIGKILL");
      acked.push(...result.acks);

      const services = testServices(library.dbPath);
      try {
        expect(await inconsistencies(services), `after round ${round} (${JSON.stringify(plan)})`).toEqual({});
        expect(await missingAcks(services, acked), `after round ${round} (${JSON.stringify(plan)})`).toEqual([]);
        let fate = "between saves";
        if (result.inFlight !== undefined) {
          const rows = await query(services, `SELECT count(*) AS n FROM versions WHERE name = '${result.inFlight}'`);
          if (result.inFlight.startsWith("shared_")) fate = `while storing ${result.inFlight}`;
          else if (Number(rows[0]?.n) === 0) {
            // A new function whose save was cut before COMMIT: none of it may remain.
            fate = `while storing ${result.inFlight} (not committed)`;
            inFlightKills++;
          } else fate = `while storing ${result.inFlight} (committed, not yet acknowledged)`;
        }
        history.push(`round ${round}: ${result.acks.length} acknowledged, killed ${fate}`);

        // The library accepts a save from another process right away.
        const saved = await commitUnchecked(services, {
          name: "shared_0",
          code: `def shared_0(x: int) -> int:\n    """After round ${round}."""\n    return x\n`,
          description: `Saved by the test after round ${round}`,
        });
        acked.push({ name: "shared_0", version: saved.function.version, id: saved.function.id });
        expect(await inconsistencies(services)).toEqual({});
        // Search reads the same rows: the last acknowledged new function is found by its words.
        const last = [...result.acks].reverse().find((a) => !a.name.startsWith("shared_"));
        if (last) {
          const found = await services.library.search({
            query: `add ${last.name.split("_f")[1]} to a number saved by r${round}`,
            limit: 50,
          });
          expect(found.hits.map((h) => h.function.name)).toContain(last.name);
        }
      } finally {
        await services.dispose();
      }
    }
    console.log(`kill-during-save:\n${history.join("\n")}`);
    expect(inFlightKills, history.join("\n")).toBeGreaterThanOrEqual(1);
    expect(acked.length).toBeGreaterThan(MIN_ROUNDS * 2);
  }, 120_000);
});
