/**
 * The search index persisted beside the library (index-snapshot.ts, index-persistence.ts): a
 * restored index ranks as the one it was taken from, reads only the rows changed since its
 * fingerprint, ignores a torn or foreign file, and a kill -9 in the middle of a write leaves the
 * old snapshot or the new one, whole.
 */
import { fork } from "node:child_process";
import { readFileSync, readdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FunctionLibrary } from "../src/domain/library/function-library.js";
import { FunctionLibrary as Library } from "../src/domain/library/function-library.js";
import type { QualityGate } from "../src/domain/gate/quality-gate.js";
import { IndexPersistence } from "../src/domain/search/index-persistence.js";
import { decodeIndexSnapshot, encodeIndexSnapshot, indexSnapshotPath } from "../src/domain/search/index-snapshot.js";
import { SearchIndex } from "../src/domain/search/search-index.js";
import type { SoloServices } from "../src/services.js";
import { SEARCH_CORPUS, corpusCode } from "./fixtures/search-corpus.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { tempLibrary, testServices } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const CHILD = fileURLToPath(new URL("./fixtures/snapshot-write-child.mjs", import.meta.url));
const QUERIES = ["split a list into batches", "checksum of a file", "validate an e-mail address", "median of numbers"];

let library: TempLibrary;
let services: SoloServices;

beforeAll(async () => {
  library = tempLibrary();
  services = testServices(library.dbPath);
  for (const fn of SEARCH_CORPUS.slice(0, 20)) {
    await commitUnchecked(services, { name: fn.name, code: corpusCode(fn), description: fn.description, tags: fn.tags });
  }
});

afterAll(async () => {
  await services?.dispose();
  library?.remove();
});

/** A library object over the same file with its own index and persistence (search only: no gate). */
function searcher(persistence: IndexPersistence): FunctionLibrary {
  return new Library({ db: services.library.db, gate: {} as QualityGate, embedder: services.embedder, persistence });
}

async function names(lib: FunctionLibrary, query: string): Promise<string[]> {
  const all = (await lib.search({ query, limit: 5 })).hits;
  const tagged = (await lib.search({ query, limit: 5, tags: ["files", "math"] })).hits;
  return [...all, ...tagged].map((hit) => `${hit.function.name} ${hit.score.toFixed(5)}`);
}

describe("persisted search index", () => {
  it("a new process restores it, ranks the same, and reads only the rows saved since", async () => {
    const first = new IndexPersistence({ dbPath: library.dbPath, rowsBeforeWrite: 1 });
    const writer = searcher(first);
    const expected = await Promise.all(QUERIES.map((q) => names(writer, q)));
    await first.settled();
    const path = indexSnapshotPath(library.dbPath, services.embedder.model, services.embedder.dimension);
    expect(decodeIndexSnapshot(readFileSync(path), services.embedder.model, services.embedder.dimension)?.used).toBe(20);

    const index = new SearchIndex(services.embedder.model, services.embedder.dimension);
    await new IndexPersistence({ dbPath: library.dbPath }).restore(index);
    expect(index.size).toBe(20);
    // In step: the sync reads nothing from the library.
    expect((await services.library.db.read((session) => index.sync(session))).read).toBe(0);

    const reader = searcher(new IndexPersistence({ dbPath: library.dbPath }));
    expect(await Promise.all(QUERIES.map((q) => names(reader, q)))).toEqual(expected);

    // A save by another process: the restored index reads that one row.
    const fn = SEARCH_CORPUS[20];
    if (!fn) throw new Error("corpus too small");
    await commitUnchecked(services, { name: fn.name, code: corpusCode(fn), description: fn.description, tags: fn.tags });
    const later = new SearchIndex(services.embedder.model, services.embedder.dimension);
    await new IndexPersistence({ dbPath: library.dbPath }).restore(later);
    const report = await services.library.db.read((session) => later.sync(session));
    expect(report).toMatchObject({ read: 1, full: false });
    expect((await reader.search({ query: fn.query, limit: 5 })).hits.map((hit) => hit.function.name)).toContain(fn.name);
  });

  it("ignores a torn file, another model's or another library file's, and loads from the library instead", async () => {
    const path = indexSnapshotPath(library.dbPath, services.embedder.model, services.embedder.dimension);
    const whole = readFileSync(path);
    const restoredSize = async () => {
      const index = new SearchIndex(services.embedder.model, services.embedder.dimension);
      await new IndexPersistence({ dbPath: library.dbPath }).restore(index);
      return index.size;
    };
    truncateSync(path, whole.length - 100);
    expect(await restoredSize()).toBe(0);
    const flipped = Buffer.from(whole);
    flipped[20] = (flipped[20] ?? 0) ^ 0xff; // inside the header: its CRC no longer matches
    writeFileSync(path, flipped);
    expect(await restoredSize()).toBe(0);
    expect(decodeIndexSnapshot(whole, "another-model", services.embedder.dimension)).toBeUndefined();
    const other = tempLibrary();
    try {
      writeFileSync(other.dbPath, "");
      writeFileSync(indexSnapshotPath(other.dbPath, services.embedder.model, services.embedder.dimension), whole);
      const index = new SearchIndex(services.embedder.model, services.embedder.dimension);
      await new IndexPersistence({ dbPath: other.dbPath }).restore(index);
      expect(index.size).toBe(0);
    } finally {
      other.remove();
    }
    writeFileSync(path, whole);
    expect(await restoredSize()).toBe(20);
    const reader = searcher(new IndexPersistence({ dbPath: library.dbPath }));
    expect((await reader.search({ query: "checksum of a large file", limit: 3 })).hits[0]?.function.name).toBe("sha256_of_file");
  });

  it("kill -9 in the middle of writes leaves the old or the new snapshot, whole", async () => {
    const index = new SearchIndex(services.embedder.model, services.embedder.dimension);
    await services.library.db.read((session) => index.sync(session));
    const a = encodeIndexSnapshot(index.snapshot("lib") ?? fail());
    // A second generation: one more function, so the fingerprints differ.
    const fn = SEARCH_CORPUS[21] ?? fail();
    await commitUnchecked(services, { name: fn.name, code: corpusCode(fn), description: fn.description, tags: fn.tags });
    await services.library.db.read((session) => index.sync(session));
    const b = encodeIndexSnapshot(index.snapshot("lib") ?? fail());
    const dir = library.dir;
    writeFileSync(join(dir, "a.bin"), a);
    writeFileSync(join(dir, "b.bin"), b);
    const target = join(dir, "kill-target.bin");
    const fingerprint = (bytes: Buffer) => JSON.stringify(decodeIndexSnapshot(bytes, index.model, index.dimension)?.fingerprint ?? null);
    const allowed = new Set([fingerprint(a), fingerprint(b)]);
    expect(allowed.size).toBe(2);

    let midWrite = 0;
    for (let round = 0; round < 4; round++) {
      const child = fork(CHILD, [target, join(dir, "a.bin"), join(dir, "b.bin")], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
      let writes = 0;
      await new Promise<void>((resolve) => {
        const kill = 2 + round;
        child.on("message", () => {
          writes += 1;
          // Kill right after a write is acknowledged: the next one is then under way.
          if (writes === kill) child.kill("SIGKILL");
        });
        child.on("exit", () => resolve());
      });
      const bytes = readFileSync(target);
      expect(allowed.has(fingerprint(bytes))).toBe(true);
      expect(bytes.equals(a) || bytes.equals(b)).toBe(true);
      if (readdirSync(dir).some((name) => name.startsWith(".kill-target.bin.") && name.endsWith(".tmp"))) midWrite += 1;
    }
    // At least one kill fell inside a write (its temporary file stayed behind), and the file was whole.
    expect(midWrite).toBeGreaterThan(0);
  });
});

function fail(): never {
  throw new Error("unexpected empty snapshot");
}
