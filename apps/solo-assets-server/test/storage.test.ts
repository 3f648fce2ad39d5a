/**
 * The library file shared between processes: a crash in the middle of a save leaves nothing of
 * it and loses nothing committed; a writer waits out another process's lock instead of failing,
 * and gives up with TIMEOUT naming the holder only after the lock timeout.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LibraryDatabase } from "../src/domain/storage/library-database.js";
import { migrateLibrarySchema } from "../src/domain/storage/schema.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { tempLibrary, testServices } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const CHILD = fileURLToPath(new URL("./fixtures/library-child.mjs", import.meta.url));

function child(args: string[], until?: string) {
  const proc = spawn(process.execPath, [CHILD, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const reached = new Promise<void>((resolve, reject) => {
    proc.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (until && out.includes(until)) resolve();
    });
    proc.once("exit", () => (until && !out.includes(until) ? reject(new Error(`child exited before "${until}": ${err}`)) : resolve()));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { proc, reached, exited, output: () => out };
}

let library: TempLibrary;
beforeEach(() => {
  library = tempLibrary();
});
afterEach(() => library.remove());

const KEPT = { name: "kept", code: 'def kept() -> int:\n    """One."""\n    return 1\n', description: "A committed function" };

describe("the library file", () => {
  it("keeps committed saves and no trace of a save whose process died mid-transaction", async () => {
    const services = testServices(library.dbPath);
    try {
      await commitUnchecked(services, KEPT);
      const crashed = child(["crash", library.dbPath]);
      const { signal } = await crashed.exited;
      expect(signal).toBe("SIGKILL");
      expect(crashed.output()).toContain("in transaction");

      const { total, functions } = await services.library.list({}, { limit: 10, offset: 0 });
      expect(total).toBe(1);
      expect(functions[0]).toMatchObject({ name: "kept", description: "A committed function", version: 1 });
      const history = await services.library.history("kept");
      expect(history.versions.map((v) => v.version)).toEqual([1]);
      await expect(services.library.history("half_written")).rejects.toMatchObject({ code: "NOT_FOUND" });
      // The file is writable again: the next save goes through.
      const next = await commitUnchecked(services, { ...KEPT, description: "Saved after the crash" });
      expect(next.function.version).toBe(2);
    } finally {
      await services.dispose();
    }
  });

  it("keeps a commit whose process died before closing the file (replayed from the write-ahead log)", async () => {
    const services = testServices(library.dbPath);
    try {
      await commitUnchecked(services, KEPT);
      const crashed = child(["commit-crash", library.dbPath]);
      expect((await crashed.exited).signal).toBe("SIGKILL");
      expect(crashed.output()).toContain("committed");
      const { functions } = await services.library.list({}, { limit: 10, offset: 0 });
      expect(functions.map((f) => f.name).sort()).toEqual(["committed_late", "kept"]);
    } finally {
      await services.dispose();
    }
  });

  it("waits for another process's lock instead of failing", async () => {
    const services = testServices(library.dbPath);
    try {
      await commitUnchecked(services, KEPT); // creates the file
      const holder = child(["hold", library.dbPath, "1500"], "holding");
      await holder.reached;
      const started = Date.now();
      const saved = await commitUnchecked(services, { ...KEPT, description: "Saved while another process held the file" });
      expect(holder.output()).toContain("released");
      expect(saved.function.version).toBe(2);
      expect(Date.now() - started).toBeGreaterThan(200);
      await holder.exited;
    } finally {
      await services.dispose();
    }
  });

  it("gives up with TIMEOUT naming the holder after the lock timeout", async () => {
    const services = testServices(library.dbPath, { SOLO_LOCK_TIMEOUT_MS: "300" });
    try {
      await commitUnchecked(services, KEPT);
      const holder = child(["hold", library.dbPath, "3000"], "holding");
      await holder.reached;
      await expect(services.library.counts()).rejects.toMatchObject({ code: "TIMEOUT", details: { holderPid: holder.proc.pid } });
      holder.proc.kill("SIGKILL");
      await holder.exited;
    } finally {
      await services.dispose();
    }
  });

  it("releases the file after every operation, failed ones included: another process can take the write lock at once", async () => {
    const db = new LibraryDatabase(library.dbPath, { lockTimeoutMs: 5_000, migrate: migrateLibrarySchema });
    const takeWriteLock = async () => {
      // The child opens the file read-write with no retry: it exits with an error if we still hold it.
      const holder = child(["hold", library.dbPath, "0"], "released");
      await holder.reached;
      expect(await holder.exited).toEqual({ code: 0, signal: null });
    };
    await db.write((session) => session.run("INSERT INTO library_info VALUES ('probe', 'written')"));
    await takeWriteLock();
    expect(await db.read((session) => session.all("SELECT value FROM library_info WHERE key = 'probe'"))).toEqual([{ value: "written" }]);
    await takeWriteLock();
    // A write whose work fails is rolled back, and the file is released all the same.
    await expect(
      db.write(async (session) => {
        await session.run("INSERT INTO library_info VALUES ('rolled_back', 'x')");
        throw new Error("the work failed");
      }),
    ).rejects.toThrow("the work failed");
    await takeWriteLock();
    await expect(db.read((session) => session.all("SELECT no_such_column FROM library_info"))).rejects.toThrow(/no_such_column/);
    await takeWriteLock();
    expect(await db.read((session) => session.all("SELECT key FROM library_info WHERE key = 'rolled_back'"))).toEqual([]);
  });
});
