/**
 * Three processes write one project at the same time through the built store (dist/, which
 * `turbo run test` builds first). Each adds its own objects, one edit per object; the lock
 * must let every edit through and lose none. A barrier on stdin starts them together.
 */
import { spawn } from "node:child_process";
import { access, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CatDocStore, loadProject, validateProject } from "../../src/domain/index.js";
import { useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();
const BUILT = fileURLToPath(new URL("../../dist/domain/index.js", import.meta.url));
const WRITERS = 3;
const OBJECTS_EACH = 12;

const WRITER_SCRIPT = `
import { CatDocStore } from ${JSON.stringify(pathToFileURL(BUILT).href)};
const [root, writer, count] = process.argv.slice(2);
const store = new CatDocStore(root);
process.stdout.write("ready\\n");
process.stdin.once("data", async () => {
  for (let i = 0; i < Number(count); i += 1) {
    await store.addObject("main", { id: \`w\${writer}-o\${i}\`, title: \`Writer \${writer} object \${i}\`, domain: "test" });
  }
  process.stdout.write("done\\n");
  process.exit(0);
});
`;

function startWriter(script: string, root: string, writer: number) {
  const child = spawn(process.execPath, [script, root, String(writer), String(OBJECTS_EACH)], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("ready\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`writer ${writer} exited (${code}) before ready: ${stderr}`)));
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
  return { child, ready, exited };
}

describe("concurrent writers", () => {
  it(`${WRITERS} processes adding ${OBJECTS_EACH} objects each lose nothing`, async () => {
    await access(BUILT).catch(() => {
      throw new Error(`${BUILT} is missing: build the app first (pnpm build, or pnpm --filter @local-mcp/catdoc-server build)`);
    });
    const root = await tempDir();
    const store = new CatDocStore(root);
    await store.init();
    await store.addCategory({ id: "main", name: "Main" });
    const script = join(root, "writer.mjs");
    await writeFile(script, WRITER_SCRIPT);

    const writers = Array.from({ length: WRITERS }, (_, w) => startWriter(script, root, w));
    await Promise.all(writers.map((w) => w.ready));
    for (const w of writers) w.child.stdin.write("go\n");
    const results = await Promise.all(writers.map((w) => w.exited));
    for (const result of results) expect(result).toMatchObject({ code: 0, stderr: "" });

    const project = await loadProject(root);
    const ids = project.model.categories[0]!.objects.map((o) => o.id).sort();
    const expected = Array.from({ length: WRITERS }, (_, w) => Array.from({ length: OBJECTS_EACH }, (_, i) => `w${w}-o${i}`))
      .flat()
      .sort();
    expect(ids).toEqual(expected);
    expect(project.model.categories[0]!.morphisms).toHaveLength(WRITERS * OBJECTS_EACH);
    expect(validateProject(project.index).isValid).toBe(true);
  }, 60_000);
});
