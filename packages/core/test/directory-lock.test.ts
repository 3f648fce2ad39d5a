/**
 * The holder-naming directory lock: a lock left by a dead holder on this host is taken over at
 * once, a live one never, and the age rule still covers holders elsewhere and unreadable
 * records. The kill -9 test runs a real holder from dist/ (build first).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LockTimeoutError, acquireDirectoryLock, withDirectoryLock } from "../src/index.js";
import type { LockHolder } from "../src/index.js";

const BUILT = fileURLToPath(new URL("../dist/files/directory-lock.js", import.meta.url));
const TOKEN = "0123456789abcdef";

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "dir-lock-"));
  lock = join(dir, "data.json.lock");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The pid of a process that has exited: a holder killed with -9. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ["-e", ""]).pid;
  if (pid === undefined) throw new Error("could not start a child process");
  return pid;
}

/** A lock as another process would have left it. */
async function leaveLock(holder: Partial<LockHolder>, options: { ageMs?: number; text?: string } = {}): Promise<void> {
  await mkdir(lock);
  const record = join(lock, `holder.${TOKEN}.json`);
  await writeFile(
    record,
    options.text ?? JSON.stringify({ pid: 1, hostname: hostname(), startedAt: new Date().toISOString(), token: TOKEN, ...holder }),
  );
  if (options.ageMs !== undefined) {
    const then = new Date(Date.now() - options.ageMs);
    await utimes(record, then, then);
  }
}

describe("directory lock", () => {
  it("records its holder while held and leaves nothing once released", async () => {
    await withDirectoryLock(lock, async (held) => {
      expect(held.isHeld()).toBe(true);
      const names = await readdir(lock);
      expect(names).toEqual([`holder.${held.holder.token}.json`]);
      const record = JSON.parse(await readFile(join(lock, names[0] ?? ""), "utf8")) as LockHolder;
      expect(record).toEqual({ pid: process.pid, hostname: hostname(), startedAt: expect.any(String) as string, token: held.holder.token });
      expect(Number.isNaN(Date.parse(record.startedAt))).toBe(false);
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it("lets one holder in at a time, also when several wait on a dead holder", async () => {
    await leaveLock({ pid: deadPid() });
    let inside = 0;
    let most = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        withDirectoryLock(
          lock,
          async (held) => {
            inside += 1;
            most = Math.max(most, inside);
            await new Promise((resolve) => setTimeout(resolve, 5));
            expect(held.isHeld()).toBe(true);
            inside -= 1;
            done += 1;
          },
          { timeoutMs: 15_000, staleMs: 60_000 },
        ),
      ),
    );
    expect({ most, done }).toEqual({ most: 1, done: 6 });
    expect(await readdir(dir)).toEqual([]);
  });

  it("takes over at once from a holder on this host whose process is gone, though its record is fresh", async () => {
    await leaveLock({ pid: deadPid() });
    const started = Date.now();
    const held = await acquireDirectoryLock(lock, { timeoutMs: 5_000, staleMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await readdir(lock)).toEqual([`holder.${held.holder.token}.json`]);
    await held.release();
  });

  it("does not take over a live holder, and names it when giving up", async () => {
    // The parent of this test process: alive, not us.
    await leaveLock({ pid: process.ppid });
    const error = await acquireDirectoryLock(lock, { timeoutMs: 300, staleMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as LockTimeoutError).holder).toMatchObject({ pid: process.ppid, hostname: hostname(), token: TOKEN });
    expect((error as Error).message).toContain(`held by pid ${process.ppid}`);
    expect(await readdir(lock)).toEqual([`holder.${TOKEN}.json`]);
    // Nothing of the waiter is left behind.
    expect(await readdir(dir)).toEqual(["data.json.lock"]);
  });

  it("keeps the age rule for holders on other hosts and unreadable records", async () => {
    await leaveLock({ pid: deadPid(), hostname: "another-host.invalid" });
    await expect(acquireDirectoryLock(lock, { timeoutMs: 200, staleMs: 60_000 })).rejects.toBeInstanceOf(LockTimeoutError);
    const old = new Date(Date.now() - 120_000);
    await utimes(join(lock, `holder.${TOKEN}.json`), old, old);
    await (await acquireDirectoryLock(lock, { timeoutMs: 2_000, staleMs: 60_000 })).release();

    await leaveLock({}, { text: "{ half a rec" });
    await expect(acquireDirectoryLock(lock, { timeoutMs: 200, staleMs: 60_000 })).rejects.toBeInstanceOf(LockTimeoutError);
    await utimes(join(lock, `holder.${TOKEN}.json`), old, old);
    await (await acquireDirectoryLock(lock, { timeoutMs: 2_000, staleMs: 60_000 })).release();
  });

  it("takes an empty lock directory (no holder) and an old lock file by age", async () => {
    await mkdir(lock);
    await (await acquireDirectoryLock(lock, { timeoutMs: 2_000 })).release();
    await writeFile(lock, "12345\n");
    const old = new Date(Date.now() - 120_000);
    await utimes(lock, old, old);
    await (await acquireDirectoryLock(lock, { timeoutMs: 2_000, staleMs: 60_000 })).release();
    expect(await readdir(dir)).toEqual([]);
  });

  it("keeps a live holder's record fresh, and tells a holder it lost the lock when taken over as stale", async () => {
    const held = await acquireDirectoryLock(lock, { staleMs: 2_000 });
    // Longer than staleMs: the holder touches its record meanwhile, so the age rule does not apply.
    await expect(acquireDirectoryLock(lock, { timeoutMs: 3_000, staleMs: 2_000 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect(held.isHeld()).toBe(true);
    await held.release();

    // A holder whose record went stale: its own refresh (every staleMs / 2) must not fire between
    // aging the record and the next writer's look — on a busy machine a 1 s refresh did — so this
    // holder refreshes every 5 minutes.
    const slow = await acquireDirectoryLock(lock, { staleMs: 600_000 });
    const record = join(lock, `holder.${slow.holder.token}.json`);
    const old = new Date(Date.now() - 120_000);
    await utimes(record, old, old);
    const next = await acquireDirectoryLock(lock, { timeoutMs: 2_000, staleMs: 60_000 });
    expect(slow.isHeld()).toBe(false);
    await slow.release();
    expect(next.isHeld()).toBe(true);
    await next.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it("is not stale on arrival for a writer that waited longer than the stale age", async () => {
    const first = await acquireDirectoryLock(lock, { staleMs: 2_000 });
    const waiting = acquireDirectoryLock(lock, { timeoutMs: 10_000, staleMs: 2_000 });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await first.release();
    const second = await waiting;
    await expect(acquireDirectoryLock(lock, { timeoutMs: 300, staleMs: 2_000 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect(second.isHeld()).toBe(true);
    await second.release();
  });

  it("removes the candidate directory a writer killed before its rename left", async () => {
    const pid = deadPid();
    const left = join(dir, `.data.json.lock.${pid}.${TOKEN}.new`);
    await mkdir(left);
    await writeFile(
      join(left, `holder.${TOKEN}.json`),
      JSON.stringify({ pid, hostname: hostname(), startedAt: new Date().toISOString(), token: TOKEN }),
    );
    const live = join(dir, `.data.json.lock.${process.ppid}.${"f".repeat(16)}.new`);
    await mkdir(live);
    await writeFile(
      join(live, `holder.${"f".repeat(16)}.json`),
      JSON.stringify({ pid: process.ppid, hostname: hostname(), startedAt: new Date().toISOString(), token: "f".repeat(16) }),
    );
    await (await acquireDirectoryLock(lock)).release();
    expect(await readdir(dir)).toEqual([`.data.json.lock.${process.ppid}.${"f".repeat(16)}.new`]);
  });

  it("is taken in well under its stale age after its holder process is killed with -9", async () => {
    expect(existsSync(BUILT), `${BUILT} is missing: build core first (pnpm --filter @local-mcp/core build)`).toBe(true);
    const script = `
      const { acquireDirectoryLock } = await import(${JSON.stringify(pathToFileURL(BUILT).href)});
      await acquireDirectoryLock(process.argv[1], { staleMs: 10000 });
      process.stdout.write("held\\n");
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script, lock], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("held")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the holder exited (${code}) before taking the lock`)));
    });
    // Alive: not taken over.
    await expect(acquireDirectoryLock(lock, { timeoutMs: 300 })).rejects.toMatchObject({ holder: { pid: child.pid } });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    const started = Date.now();
    const held = await acquireDirectoryLock(lock, { timeoutMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    await held.release();
    expect(await readdir(dir)).toEqual([]);
  });
});
