/**
 * kill -9 in the middle of `catdoc import`. The built bin imports batches of Markdown documents
 * into a large generated project (category.yaml of several hundred KB, so writing it takes real
 * time), one process per batch, and the test SIGKILLs it at chosen moments, seen with fs.watch:
 * at the first sign of the write (its temporary file appears, or category.yaml changes), a few
 * milliseconds after it (writing, fsync, rename, directory sync), while it holds the project
 * lock, at a random time; one import is let finish. After every round, as a restarted process
 * would see it:
 *  - category.yaml is byte for byte either the state before the import or the state the complete
 *    import produces (the same import run on a copy) — never a partial file or a partial import
 *    (a non-atomic write, or an import written in several edits, fails this);
 *  - an import that exited 0 is in the file, and every import committed before stays there;
 *  - every YAML file in .catdoc parses, the project loads, and validation is clean;
 *  - the next import proceeds at once: a lock left by a killed holder names a dead process, so
 *    the next writer takes it over without waiting for it to go stale (10 s).
 * Temporary files a killed write leaves behind are counted; they must not disturb anything,
 * and the next successful write removes them (core's writeFileAtomic).
 */
import { spawn } from "node:child_process";
import { watch } from "node:fs";
import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadProject, validateProject } from "../../src/domain/index.js";
import { expectedAfterImport, generateImportProject, importArgs, leftoverTempFiles } from "./generated-import-project.js";
import type { GeneratedImportProject } from "./generated-import-project.js";
import { CLI, assertBuilt, catdoc } from "./run-catdoc.js";

type KillPlan = "first-write" | "after-first-write" | "holding-lock" | "random" | "none";
const PLANS: KillPlan[] = ["first-write", "after-first-write", "none", "holding-lock", "after-first-write", "random"];
const TEMP_FILE = /^\.category\.yaml\.\d+\.[0-9a-f]+\.tmp$/;
const LOCK_DIR = "category.yaml.lock";

let scratchRoot: string;
let project: GeneratedImportProject;
beforeAll(async () => {
  assertBuilt();
  scratchRoot = await mkdtemp(join(tmpdir(), "catdoc-kill-"));
  project = await generateImportProject(join(scratchRoot, "project"), { batches: PLANS.length + 2, documentsEach: 50 });
}, 60_000);
afterAll(() => rm(scratchRoot, { recursive: true, force: true }));

interface RoundOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs `catdoc import` of one batch and kills it as the plan says. */
function importAndKill(batch: number, plan: KillPlan): Promise<RoundOutcome> {
  const child = spawn(process.execPath, [CLI, ...importArgs(batch)], { cwd: project.root, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const kill = () => child.kill("SIGKILL");
  const watcher = watch(join(project.root, ".catdoc"), (_event, name) => {
    if (name === null) return;
    // The first sign of the write: its temporary file appears (or category.yaml itself changes).
    const writing = TEMP_FILE.test(name) || name === "category.yaml";
    if (plan === "first-write" && writing) kill();
    if (plan === "after-first-write" && writing) setTimeout(kill, Math.floor(Math.random() * 25));
    if (plan === "holding-lock" && name === LOCK_DIR) setTimeout(kill, Math.floor(Math.random() * 600));
  });
  if (plan === "random") setTimeout(kill, Math.floor(Math.random() * 2_000));
  return new Promise((resolve, reject) => {
    child.once("exit", (code, signal) => {
      watcher.close();
      if (plan === "none" && code !== 0) reject(new Error(`catdoc import exited ${code}: ${stderr}`));
      else resolve({ code, signal });
    });
  });
}

/** Whether a killed holder left its lock behind (the next import must take it over at once). */
function lockLeft(): Promise<boolean> {
  return stat(join(project.root, ".catdoc", LOCK_DIR)).then(
    () => true,
    () => false,
  );
}

/** Every YAML file in .catdoc parses; the project loads and validates without errors. Returns its object ids. */
async function assertProjectReadable(where: string): Promise<Set<string>> {
  const dir = join(project.root, ".catdoc");
  for (const name of await readdir(dir)) {
    if (!/\.ya?ml$/.test(name)) continue;
    const text = await readFile(join(dir, name), "utf8");
    expect(() => parse(text), `${where}: ${name}`).not.toThrow();
  }
  const loaded = await loadProject(project.root);
  const report = validateProject(loaded.index);
  expect(report.errors, where).toEqual([]);
  expect(report.isValid, where).toBe(true);
  return new Set(loaded.model.categories.flatMap((c) => c.objects.map((o) => o.id)));
}

describe("kill -9 during catdoc import", () => {
  it("leaves category.yaml in the state before or after each import, keeps committed imports, and imports again", async () => {
    const committed: number[] = [];
    const history: string[] = [];
    for (const [batch, plan] of PLANS.entries()) {
      const before = await readFile(project.categoryFile, "utf8");
      const outcome = await importAndKill(batch, plan);
      const text = await readFile(project.categoryFile, "utf8");
      let state: "before" | "after";
      if (text === before) state = "before";
      else {
        const after = await expectedAfterImport(project, before, batch, join(scratchRoot, `expected-${batch}`));
        expect(text === after, `round ${batch} (${plan}): category.yaml is neither the state before nor the state after the import`).toBe(
          true,
        );
        state = "after";
      }
      if (outcome.code === 0) expect(state, `round ${batch}: the import exited 0`).toBe("after");
      if (state === "after") committed.push(batch);
      const left = await lockLeft();
      const temps = await leftoverTempFiles(project.root);
      history.push(
        `round ${batch} ${plan}: ${outcome.signal ?? `exit ${outcome.code}`}, ${state}${left ? ", lock left" : ""}, ${temps.length} temp file(s)`,
      );

      const ids = await assertProjectReadable(`after round ${batch} (${plan})`);
      for (const done of committed)
        expect(
          project.batchIds(done).filter((id) => !ids.has(id)),
          `batch ${done} after round ${batch}`,
        ).toEqual([]);
      if (state === "before") expect(project.batchIds(batch).filter((id) => ids.has(id))).toEqual([]);
    }
    expect(committed.length).toBeGreaterThanOrEqual(PLANS.filter((p) => p === "none").length);

    // A restart without help: kill a holder of the lock, then import through the bin, which
    // must take the left lock over at once (its holder is dead), not fail or wait 10 s for it
    // to go stale.
    const last = PLANS.length;
    await importAndKill(last, "holding-lock");
    const leftByKilled = await lockLeft();
    const started = Date.now();
    const next = await catdoc(importArgs(last + 1), { cwd: project.root });
    const took = Date.now() - started;
    expect(next.code, next.stderr).toBe(0);
    expect((JSON.parse(next.stdout) as { written: boolean }).written).toBe(true);
    // The import itself takes a second or two; waiting out a stale lock would add 10 s.
    expect(took, "the import after the kill waited for the left lock to go stale").toBeLessThan(8_000);
    history.push(`final: ${leftByKilled ? "lock left by the killed holder, " : ""}next import took ${took} ms`);
    const validated = await catdoc(["validate", "--format", "json"], { cwd: project.root });
    expect(validated.code, validated.stderr).toBe(0);
    expect(JSON.parse(validated.stdout)).toMatchObject({ isValid: true });
    const ids = new Set((await loadProject(project.root)).model.categories.flatMap((c) => c.objects.map((o) => o.id)));
    for (const done of [...committed, last + 1])
      expect(
        project.batchIds(done).filter((id) => !ids.has(id)),
        `batch ${done} at the end`,
      ).toEqual([]);
    // The successful write removed the temporary files of the killed writers.
    expect(await leftoverTempFiles(project.root)).toEqual([]);
    console.log(`kill-during-import:\n${history.join("\n")}`);
  }, 120_000);
});
