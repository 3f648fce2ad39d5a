/**
 * The project lock after its holder is killed: a writer process takes the lock (an edit that
 * never finishes) through the built store (dist/, which `turbo run test` builds first). While
 * it lives, another writer waits and gets CONFLICT naming it; once it is killed with -9, the
 * next writer gets the lock at once instead of waiting for the lock to go stale (10 s).
 */
import { spawn } from "node:child_process";
import { access, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CatDocConflictError, CatDocStore } from "../../src/domain/index.js";
import { useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();
const BUILT = fileURLToPath(new URL("../../dist/domain/index.js", import.meta.url));

const HOLDER_SCRIPT = `
import { CatDocStore } from ${JSON.stringify(pathToFileURL(BUILT).href)};
const store = new CatDocStore(process.argv[2]);
void store.edit(async () => {
  process.stdout.write("holding\\n");
  await new Promise(() => setInterval(() => {}, 1000));
});
`;

const holders: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of holders.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Starts a process that takes the project's lock and keeps it; resolves once it holds it. */
async function startHolder(root: string) {
  await access(BUILT).catch(() => {
    throw new Error(`${BUILT} is missing: build the app first (pnpm build, or pnpm --filter @local-mcp/catdoc-server build)`);
  });
  const script = join(root, "holder.mjs");
  await writeFile(script, HOLDER_SCRIPT);
  const child = spawn(process.execPath, [script, root], { stdio: ["ignore", "pipe", "pipe"] });
  holders.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("holding")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the holder exited (${code}) before taking the lock: ${stderr}`)));
  });
  return { child, exited };
}

async function initProject(): Promise<string> {
  const root = await tempDir();
  const store = new CatDocStore(root);
  await store.init();
  await store.addCategory({ id: "main", name: "Main" });
  return root;
}

describe("project lock held by another process", () => {
  it("is not taken over while its holder lives: the writer waits, then gets CONFLICT naming the holder", async () => {
    const root = await initProject();
    const holder = await startHolder(root);
    const waiter = new CatDocStore(root, { lock: { timeoutMs: 1_000 } });
    const error = await waiter.addObject("main", { id: "blocked", title: "Blocked", domain: "test" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatDocConflictError);
    expect((error as CatDocConflictError).details).toMatchObject({ holder: { pid: holder.child.pid } });
    expect(await readdir(join(root, ".catdoc"))).toContain("category.yaml.lock");
  }, 30_000);

  it("is taken at once after its holder is killed with -9", async () => {
    const root = await initProject();
    const holder = await startHolder(root);
    holder.child.kill("SIGKILL");
    await holder.exited;
    expect(await readdir(join(root, ".catdoc"))).toContain("category.yaml.lock");

    const started = Date.now();
    const result = await new CatDocStore(root).addObject("main", { id: "after-kill", title: "After the kill", domain: "test" });
    expect(Date.now() - started, "the next writer waited for the lock to go stale").toBeLessThan(2_000);
    expect(result.written).toBe(true);
    expect(await readdir(join(root, ".catdoc"))).not.toContain("category.yaml.lock");
  }, 30_000);
});
