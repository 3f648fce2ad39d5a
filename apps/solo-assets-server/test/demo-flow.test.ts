/**
 * `pnpm demo`'s solo-assets flow (scripts/demo/solo-assets.mjs) on a machine without Python 3:
 * the saves come out unverified, and the flow warns with the reason and what to install instead
 * of passing silently. Made real: the server runs with a PATH that has no python3.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnStdioOptions } from "@local-mcp/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { linkLintAndTypeTools, seedTypeCache } from "./helpers/gate-tools.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = join(ROOT, "apps/solo-assets-server/dist/mcp.js");
const scratch = mkdtempSync(join(tmpdir(), "solo-demo-flow-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Flow {
  run(options: {
    root: string;
    bin: string;
    spawn: (options?: Partial<SpawnStdioOptions>) => ReturnType<typeof spawnStdioServer>;
    log: (line: string) => void;
    warn: (line: string) => void;
  }): Promise<void>;
}

describe("the demo's solo-assets flow", () => {
  it("warns with the code and what to install when the gate cannot run the tests", async () => {
    const bin = join(scratch, "bin");
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, "node"));
    // The real ruff and mypy, not their npm fallbacks (the lint and type steps are not what this
    // is about), in a pool whose mypy cache starts warm.
    linkLintAndTypeTools(bin);
    const envs = seedTypeCache(join(scratch, "envs"));
    const flow = (await import(join(ROOT, "scripts/demo/solo-assets.mjs"))) as Flow;
    const lines: string[] = [];
    const warnings: string[] = [];
    await flow.run({
      root: ROOT,
      bin: BIN,
      spawn: (options = {}) =>
        spawnStdioServer({
          command: process.execPath,
          args: [BIN],
          ...options,
          env: { ...options.env, PATH: bin, SOLO_PYTHON: "python3", SOLO_ENVS_DIR: envs },
        }),
      log: (line) => lines.push(line),
      warn: (line) => warnings.push(line),
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^4 of 4 saves stored unverified \(.+\): PYTHON_UNAVAILABLE: .+ — Install Python 3/);
    expect(lines.filter((line) => line.includes("unverified: PYTHON_UNAVAILABLE"))).toHaveLength(4);
  }, 300_000);
});
