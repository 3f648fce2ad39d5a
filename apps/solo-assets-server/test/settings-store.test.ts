/**
 * The dashboard's settings and key files: private (0600) whatever was there before, replaced
 * atomically, and a temporary file a killed write left behind is removed by the next write.
 */
import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SettingsStore } from "../src/domain/settings/settings-store.js";

let dir: string;
let store: SettingsStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "solo-settings-"));
  store = new SettingsStore({ settingsPath: join(dir, "lib", "solo.settings.json"), apiKeyPath: join(dir, "lib", "solo.gemini-key") });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A temporary file as a write killed with -9 before its rename leaves it (a finished child's pid). */
function killedWriteTemp(target: string): string {
  const pid = spawnSync(process.execPath, ["-e", ""]).pid;
  return `.${target}.${pid}.0123456789ab.tmp`;
}

describe("SettingsStore", () => {
  it("writes both files with mode 0600, also over files that were readable by others", async () => {
    expect(await store.update({ embedder: "local", criticModel: "gemma" })).toEqual({ embedder: "local", criticModel: "gemma" });
    await store.writeApiKey("  key-123  ");
    const lib = join(dir, "lib");
    for (const name of ["solo.settings.json", "solo.gemini-key"]) expect((await stat(join(lib, name))).mode & 0o777, name).toBe(0o600);

    await chmod(join(lib, "solo.settings.json"), 0o644);
    await chmod(join(lib, "solo.gemini-key"), 0o644);
    expect(await store.update({ criticModel: null })).toEqual({ embedder: "local" });
    await store.writeApiKey("key-456");
    for (const name of ["solo.settings.json", "solo.gemini-key"]) expect((await stat(join(lib, name))).mode & 0o777, name).toBe(0o600);
    expect(store.read()).toEqual({ embedder: "local" });
    expect(store.readApiKey()).toBe("key-456");
    expect((await readdir(lib)).sort()).toEqual(["solo.gemini-key", "solo.settings.json"]);
  });

  it("removes the temporary files of killed writes on the next write", async () => {
    const lib = join(dir, "lib");
    await store.update({ embedder: "gemini" });
    const left = [killedWriteTemp("solo.settings.json"), killedWriteTemp("solo.gemini-key")];
    for (const name of left) await writeFile(join(lib, name), "half", { mode: 0o600 });
    await store.writeApiKey("key-789");
    expect((await readdir(lib)).sort()).toEqual(["solo.gemini-key", "solo.settings.json"]);
    expect(await readFile(join(lib, "solo.gemini-key"), "utf8")).toBe("key-789\n");
  });

  it("refuses a key that is not one word, writing nothing", async () => {
    await expect(store.writeApiKey("two words")).rejects.toThrow(/one word/);
    expect(store.hasApiKey()).toBe(false);
  });
});
