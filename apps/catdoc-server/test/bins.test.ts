import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const run = (bin: string, args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const path = fileURLToPath(new URL(`../dist/${bin}.js`, import.meta.url));
    execFile(process.execPath, [path, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });

describe("catdoc-server bins while the app is not built", () => {
  it.each([["mcp", "catdoc-mcp"], ["cli", "catdoc"]])("%s says it is not built yet instead of pretending", async (file, bin) => {
    const started = await run(file, []);
    expect(started.code).toBe(69);
    expect(started.stdout).toBe("");
    expect(started.stderr).toContain(`${bin}: not built yet`);
    const help = await run(file, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Status: .*not built yet/);
  });
});
