/**
 * A write answers at COMMIT (durable in DuckDB's WAL) and checkpoints on DETACH afterwards, in the
 * same queue slot (src/domain/storage/library-database.ts): the caller does not wait for the
 * checkpoint's fsyncs, the process's next operation on the file does, and `settled()` resolves
 * only once the WAL is folded into the file.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LibraryDatabase } from "../src/domain/storage/library-database.js";
import { migrateLibrarySchema } from "../src/domain/storage/schema.js";
import { tempLibrary } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

let library: TempLibrary;
let db: LibraryDatabase;
beforeAll(async () => {
  library = tempLibrary();
  db = new LibraryDatabase(library.dbPath, { lockTimeoutMs: 10_000, migrate: migrateLibrarySchema });
  await db.settled();
});
afterAll(() => library.remove());

it("answers a write at its commit and checkpoints after it, before the next operation and settled()", async () => {
  const wal = `${db.path}.wal`;
  await db.write((session) => session.run(`INSERT OR REPLACE INTO library_info VALUES ('probe', 'one')`));
  // The answer came before DETACH: the committed write is still in the WAL.
  expect(existsSync(wal)).toBe(true);
  // The next operation on the file runs after the checkpoint and sees the write.
  const rows = await db.read((session) => session.all(`SELECT value FROM library_info WHERE key = 'probe'`));
  expect(rows).toEqual([{ value: "one" }]);
  expect(existsSync(wal)).toBe(false);

  await db.write((session) => session.run(`UPDATE library_info SET value = 'two' WHERE key = 'probe'`));
  expect(existsSync(wal)).toBe(true);
  await db.settled();
  expect(existsSync(wal)).toBe(false);
});

it("still rejects a write whose work fails, and rolls it back", async () => {
  await expect(
    db.write(async (session) => {
      await session.run(`INSERT OR REPLACE INTO library_info VALUES ('probe', 'three')`);
      throw new Error("refused");
    }),
  ).rejects.toThrow("refused");
  const rows = await db.read((session) => session.all(`SELECT value FROM library_info WHERE key = 'probe'`));
  expect(rows).toEqual([{ value: "two" }]);
});
