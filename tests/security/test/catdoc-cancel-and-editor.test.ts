/**
 * Issue #13, item 11: catdoc's writes of category.yaml under a client that cancels and an editor
 * that saves the file without taking catdoc's lock. Both through the real catdoc-mcp bin over
 * stdio with the SDK client.
 *
 * - Cancellation. A client cancels (`notifications/cancelled`, sent by the SDK when the request's
 *   AbortSignal aborts) an import of 200 documents into a generated project while the import is
 *   working under the write lock and at least ~300 ms in. The server sends no answer (the spec
 *   allows that), so the file must be byte-identical afterwards — the client was told nothing was
 *   done — and no lock or temporary file may be left. A later import, which queues behind the
 *   cancelled one in the same store, is the event that says the cancelled one has ended.
 * - The editor. A separate process saves category.yaml 1,000 times every 8–20 ms (atomically
 *   via its own temporary file in one test, in place in the other) while two catdoc-mcp
 *   processes import documents into it back to back. A save is LOST when a catdoc write replaced
 *   it with a file built from an older version: the editor keeps its save number in the file's
 *   first and last comment lines, which catdoc's edits keep, and only the editor changes them;
 *   so when the editor reloads before its next save and finds anything but its own last number
 *   in both lines, catdoc wrote over that save without having read it. The last save is checked
 *   the same way once every catdoc call has been answered. A catdoc write that would have
 *   lost one must answer CONFLICT instead: none may be lost, whether the editor saves in place
 *   or by rename. (catdoc commits by taking category.yaml away and linking its new file in, which
 *   fails if the editor saved meanwhile — apps/catdoc-server/src/domain/store/commit.ts; the
 *   editor's reload meets the file missing for those microseconds now and then, and retries.)
 */
import { spawn } from "node:child_process";
import { watch } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeGeneratedProject } from "../../../apps/catdoc-server/src/testing/generate-project.js";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { BASE_ENV, REPO_ROOT, SERVER_NODE } from "./support/servers.js";

const CATDOC_MCP = join(REPO_ROOT, "apps/catdoc-server/dist/mcp.js");
const EDITOR = fileURLToPath(new URL("./support/lockless-editor.mjs", import.meta.url));

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function startCatdoc(root: string): Promise<SpawnedStdioServer> {
  const server = await spawnStdioServer({
    command: SERVER_NODE,
    args: [CATDOC_MCP],
    env: { ...BASE_ENV, CATDOC_PROJECT_PATH: root },
    cwd: root,
    readyPattern: /ready/,
    readyTimeoutMs: 60_000,
  });
  cleanup.push(() => server.close());
  return server;
}

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

function errorOf(answer: ToolAnswer): { code?: string; message?: string; suggestion?: string } | undefined {
  return answer.isError === true
    ? (answer.structuredContent?.["error"] as { code?: string; message?: string; suggestion?: string })
    : undefined;
}

/** What catdoc leaves in .catdoc besides its two files: locks, lock candidates, temporary files. */
/** What .catdoc holds besides the project's files and the parsed-YAML cache's entry (and .gitignore): locks, temporary files. */
async function leftovers(root: string): Promise<string[]> {
  const top = (await readdir(join(root, ".catdoc"))).filter((name) => !["category.yaml", "config.yaml", "cache"].includes(name));
  const cache = await readdir(join(root, ".catdoc", "cache")).catch(() => []);
  return [...top, ...cache.filter((name) => !["parsed-yaml.cache", ".gitignore"].includes(name)).map((name) => `cache/${name}`)];
}

describe("catdoc-mcp: a cancelled import", () => {
  it("cancelled before its commit point writes nothing and leaves no lock or temporary file", async () => {
    const root = await tempDir("catdoc-cancel-");
    await writeGeneratedProject(root, { objects: 600, morphisms: 3000, functors: 2, seed: 11 });
    await mkdir(join(root, "notes"));
    await mkdir(join(root, "pre"));
    const notes = 200;
    for (let i = 0; i < notes; i += 1) {
      const body = `---\nid: note-${i}\ntitle: Note ${i}\n---\n# Note ${i}\nSee @note-${(i + 1) % notes} and [[note-${(i + 7) % notes}]].\n`;
      await writeFile(join(root, "notes", `n${i}.md`), body);
    }
    await writeFile(join(root, "pre", "one.md"), "---\nid: pre-one\ntitle: One\n---\n# One\n");
    const server = await startCatdoc(root);
    const importInto = (filePath: string, options?: { signal?: AbortSignal }) =>
      server.client.callTool(
        { name: "catdoc_import_document", arguments: { filePath, categoryId: "cat-0" } },
        options,
      ) as Promise<ToolAnswer>;

    // Load the project once (what a session does first), then take the bytes to compare with.
    expect((await importInto("pre/one.md")).structuredContent?.["written"]).toBe(true);
    const categoryFile = join(root, ".catdoc", "category.yaml");
    const before = await readFile(categoryFile);

    // The lock appearing means the import is inside its edit: reading, planning, writing.
    const lockTaken = new Promise<void>((resolve) => {
      const watcher = watch(join(root, ".catdoc"), (_event, name) => {
        if (name === "category.yaml.lock") {
          watcher.close();
          resolve();
        }
      });
      cleanup.push(async () => watcher.close());
    });
    const controller = new AbortController();
    const started = Date.now();
    const cancelled = importInto("notes", { signal: controller.signal }).then(
      (answer) => ({ answered: answer }),
      (error: unknown) => ({ rejected: error }),
    );
    await lockTaken;
    const waitMore = 300 - (Date.now() - started);
    if (waitMore > 0) await new Promise((resolve) => setTimeout(resolve, waitMore));
    const atCancel = await readFile(categoryFile);
    controller.abort("the user pressed Esc");
    const cancelledAt = Date.now() - started;
    // The attack is only meaningful if the import had not committed yet when it was cancelled.
    expect(atCancel.equals(before), `the import had already written category.yaml ${cancelledAt} ms in: make the project bigger`).toBe(
      true,
    );
    expect(await cancelled).toHaveProperty("rejected");

    // The same store runs its edits one after another: this import's answer comes after the
    // cancelled one has ended. Re-importing the same document changes nothing.
    const after = await importInto("pre/one.md");
    expect(errorOf(after)).toBeUndefined();
    expect(after.structuredContent?.["written"]).toBe(false);
    const now = await readFile(categoryFile);
    expect(now.equals(before), `category.yaml changed after the import was cancelled ${cancelledAt} ms in`).toBe(true);
    expect(await leftovers(root)).toEqual([]);
    server.assertCleanStdout();
  });
});

interface EditorReport {
  saves: number;
  lost: { save: number; found: [number, number]; at: number }[];
  last: number;
  finalHead: number;
  /** Reloads that found category.yaml missing (inside a catdoc commit) and retried. */
  missingSeen: number;
  ms: number;
}

function runEditor(file: string, saves: number, mode: "atomic" | "in-place"): Promise<EditorReport> {
  const child = spawn(process.execPath, [EDITOR, file, String(saves), mode, "8", "20"], { stdio: ["ignore", "pipe", "pipe"] });
  cleanup.push(async () => child.kill("SIGKILL"));
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the editor exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as EditorReport);
    });
  });
}

const EDITOR_START =
  "# editor-save: 0\ncategories:\n  - id: notes\n    name: Notes\n    objects: []\n    morphisms: []\nfunctors: []\nnaturalTransformations: []\n# editor-end: 0\n";

describe("catdoc-mcp: a lock-less editor saving category.yaml while catdoc writes", () => {
  it.each(["atomic", "in-place"] as const)(
    "1,000 %s saves: every catdoc write keeps the editor's latest save or answers CONFLICT",
    async (mode) => {
      const root = await tempDir(`catdoc-editor-${mode}-`);
      await mkdir(join(root, ".catdoc"));
      await mkdir(join(root, "notes"));
      const categoryFile = join(root, ".catdoc", "category.yaml");
      await writeFile(categoryFile, EDITOR_START);
      const servers = await Promise.all([startCatdoc(root), startCatdoc(root)]);

      const outcomes = { written: 0, unchanged: 0, conflicts: 0, other: [] as string[] };
      const conflictSuggestions = new Set<string>();
      let editing = true;
      // Each catdoc process imports its own document again and again, with a new title each time
      // (force: the title is overwritten), so every successful import writes category.yaml.
      const writer = async (server: SpawnedStdioServer, name: string) => {
        for (let round = 0; editing; round += 1) {
          await writeFile(join(root, "notes", `${name}.md`), `---\nid: note-${name}\ntitle: ${name} ${round}\n---\n# ${name}\n`);
          const answer = (await server.client.callTool({
            name: "catdoc_import_document",
            arguments: { filePath: `notes/${name}.md`, categoryId: "notes", force: true },
          })) as ToolAnswer;
          const error = errorOf(answer);
          if (error === undefined) {
            if (answer.structuredContent?.["written"] === true) outcomes.written += 1;
            else outcomes.unchanged += 1;
          } else if (error.code === "CONFLICT") {
            outcomes.conflicts += 1;
            conflictSuggestions.add(error.suggestion ?? "");
          } else {
            outcomes.other.push(`${error.code}: ${error.message}`);
          }
        }
      };
      const editor = runEditor(categoryFile, 1000, mode);
      const writers = Promise.all([writer(servers[0]!, "a"), writer(servers[1]!, "b")]);
      const report = await editor.finally(() => (editing = false));
      await writers;

      const final = await readFile(categoryFile, "utf8");
      const lines = final.trimEnd().split("\n");
      const summary = JSON.stringify({ ...outcomes, other: outcomes.other.length });
      console.log(
        `editor ${mode}: ${report.saves} saves in ${report.ms} ms, ${report.lost.length} lost, ${report.missingSeen} reloads met the file missing; catdoc ${summary}`,
      );
      // None lost, by rename or in place. Before the exclusive commit (a rename over category.yaml
      // after the last check) CI measured 1 save lost by rename in 360 catdoc writes; before the
      // check after the flush, 114 in 61.
      expect(
        report.lost.length,
        `saves silently overwritten by catdoc (of ${report.saves}): ${JSON.stringify(report.lost)}; catdoc ${summary}`,
      ).toBe(0);
      // The last save, which no later reload of the editor checks.
      expect([lines[0], lines.at(-1)]).toEqual([`# editor-save: ${report.last}`, `# editor-end: ${report.last}`]);
      // catdoc really wrote between the saves (else nothing was tested), and failed with CONFLICT —
      // or, against an editor that saves in place, on reading a file it was saving (the truncated
      // or half-written text: no category 'notes'), which writes nothing either.
      expect(outcomes.written).toBeGreaterThanOrEqual(10);
      const halfSaved = /^(NOT_FOUND: Category 'notes' not found|INVALID_INPUT: .*category\.yaml)/;
      expect(outcomes.other.filter((error) => mode === "atomic" || !halfSaved.test(error))).toEqual([]);
      for (const suggestion of conflictSuggestions) expect(suggestion).toMatch(/again|retry/i);
      expect((await leftovers(root)).filter((name) => !name.includes(".editor-"))).toEqual([]);
      for (const server of servers) server.assertCleanStdout();
    },
  );
});
