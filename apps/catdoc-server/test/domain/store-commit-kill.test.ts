/**
 * A catdoc process killed with SIGKILL between the steps of its commit of category.yaml
 * (src/domain/store/commit.ts): a real child process runs an edit through the built store
 * (dist/, which `turbo run test` builds first) and kills itself right after the chosen step.
 * Whatever the step, the project stays readable: missing category.yaml with the dead process's
 * stash is restored by the next reader (two at once restore it once, under the lock), a commit
 * killed after its link leaves the new file, and the next edit clears the names left behind.
 */
import { spawn } from "node:child_process";
import { access, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CatDocStore, contentVersion } from "../../src/domain/index.js";
import { copyExample, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();
const BUILT = fileURLToPath(new URL("../../dist/domain/index.js", import.meta.url));

// argv: root, the step to die after, and "in-place" to have an editor (this process, through a
// descriptor opened before the commit) save in place right after the link — which makes the
// commit withdraw its file and put the save back.
const EDITING_CHILD = `
import { ftruncateSync, openSync, writeSync } from "node:fs";
import { CatDocStore } from ${JSON.stringify(pathToFileURL(BUILT).href)};
const [root, dieAfter, editor] = process.argv.slice(2);
const store = new CatDocStore(root);
const fd = openSync(store.paths.categoryFile, "r+");
const withEditor = new CatDocStore(root, {
  onCommitStep(step) {
    if (editor === "in-place" && step === "linked") {
      ftruncateSync(fd, 0);
      writeSync(fd, process.env.EDITOR_TEXT, 0);
    }
    if (step === dieAfter) process.kill(process.pid, "SIGKILL");
  },
});
await withEditor.addObject("algebra", { id: "lattices", title: "Lattices", domain: "mathematics" });
process.stdout.write("not killed\\n");
`;

const READING_CHILD = `
import { CatDocStore } from ${JSON.stringify(pathToFileURL(BUILT).href)};
const project = await new CatDocStore(process.argv[2]).load();
process.stdout.write(project.version + "\\n");
`;

function run(script: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function killedProject(dieAfter: string, editor: "none" | "in-place" = "none", editorText = "") {
  await access(BUILT).catch(() => {
    throw new Error(`${BUILT} is missing: build the app first (pnpm --filter @local-mcp/catdoc-server build)`);
  });
  const root = await copyExample(await tempDir(), "math-docs");
  const store = new CatDocStore(root);
  const original = await readFile(store.paths.categoryFile, "utf8");
  const scripts = await tempDir("catdoc-kill-scripts-");
  const editing = join(scripts, "editing.mjs");
  const reading = join(scripts, "reading.mjs");
  await writeFile(editing, EDITING_CHILD);
  await writeFile(reading, READING_CHILD);
  const killed = await run(editing, [root, dieAfter, editor], { EDITOR_TEXT: editorText });
  expect(killed, killed.stderr).toMatchObject({ signal: "SIGKILL", stdout: "" });
  const names = async () => (await readdir(store.paths.catdocDir)).filter((name) => name !== "config.yaml");
  return { root, store, original, reading, names, read: () => readFile(store.paths.categoryFile, "utf8") };
}

const STASH = /^\.category\.yaml\.\d+\.\d+\.[0-9a-f]{12}\.stash$/;
const TEMP = /^\.category\.yaml\.\d+\.[0-9a-f]{12}\.tmp$/;

describe("kill -9 inside the commit of category.yaml", () => {
  it.each(["stashed", "checked"])("after the %s step (category.yaml taken away): the next reader restores it", async (step) => {
    const { store, original, names, read } = await killedProject(step);
    const left = await names();
    expect(left).not.toContain("category.yaml");
    expect(left.filter((name) => STASH.test(name))).toHaveLength(1);
    expect(await store.isInitialized()).toBe(true);
    expect((await store.load()).version).toBe(contentVersion(original));
    expect(await read()).toBe(original);
    // The restore removed the dead commit's stash and temporary file; the lock was taken over.
    expect(await names()).toEqual(["category.yaml"]);
    await store.addObject("algebra", { id: "lattices", title: "Lattices", domain: "mathematics" });
    expect(await read()).toContain("id: lattices");
    expect(await names()).toEqual(["category.yaml"]);
  });

  it("after the stashed step, two readers at once: both read the restored file, nothing is left behind", async () => {
    const { original, reading, root, names, read } = await killedProject("stashed");
    const answers = await Promise.all([run(reading, [root]), run(reading, [root])]);
    for (const answer of answers) expect(answer, answer.stderr).toMatchObject({ code: 0, stdout: `${contentVersion(original)}\n` });
    expect(await read()).toBe(original);
    expect(await names()).toEqual(["category.yaml"]);
  });

  it.each(["linked", "verified"])("after the %s step: the new file stands; the next edit clears the names left", async (step) => {
    const { store, names, read } = await killedProject(step);
    expect(await read()).toContain("id: lattices");
    const left = await names();
    expect(left.filter((name) => STASH.test(name))).toHaveLength(1);
    expect(left.filter((name) => TEMP.test(name))).toHaveLength(1);
    expect((await store.load()).model.categories.flatMap((c) => c.objects.map((o) => o.id))).toContain("lattices");
    await store.addObject("algebra", { id: "posets", title: "Posets", domain: "mathematics" });
    expect(await names()).toEqual(["category.yaml"]);
  });

  it("inside a put-back (after withdrawing its file): the editor's save is restored", async () => {
    const editorText = "# saved in place by an editor\ncategories: []\n";
    const { store, names, read } = await killedProject("withdrawn", "in-place", editorText);
    expect(await names()).not.toContain("category.yaml");
    expect((await store.load()).version).toBe(contentVersion(editorText));
    expect(await read()).toBe(editorText);
    expect(await names()).toEqual(["category.yaml"]);
  });
});
