import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "@local-mcp/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { tempDir } from "./helpers.js";

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir("local-model-config-");
  await mkdir(join(dir.path, "project"));
  await mkdir(join(dir.path, "other"));
});
afterAll(async () => {
  await dir.remove();
});

const HOME = { HOME: "/home/ada" };

describe("loadConfig", () => {
  it("defaults: the working directory as root, no model, the seed's threshold, timeouts and retries", () => {
    const config = loadConfig({ env: HOME, cwd: join(dir.path, "project") });
    expect(config).toMatchObject({
      configFile: undefined,
      roots: [join(dir.path, "project")],
      maxFileBytes: 1024 * 1024,
      timeoutMs: 30_000,
      maxRetries: 2,
      confidenceThreshold: 0.7,
      strictSchema: true,
      templatesDir: undefined,
      logLevel: "info",
      responseLevel: "minimal",
      tokenTracking: true,
      stateDir: "/home/ada/.local/state/local-model",
      regexTimeoutMs: 1000,
      model: { kind: "none" },
    });
  });

  it("reads config.json in the seed's format, paths relative to the file, and lets LOCAL_MODEL_* variables override it", async () => {
    const file = join(dir.path, "seed-config.json");
    await writeFile(
      file,
      JSON.stringify({
        ollama: { host: "http://localhost:11434", model: "qwen2.5-coder:7b", timeout_ms: 30000, max_retries: 2 },
        validation: { confidence_threshold: 0.8, strict_schema: false },
        templates_dir: "./templates",
        logging: { level: "warn", token_tracking: true },
        roots: ["project", "other"],
        state_dir: "state",
      }),
    );
    const config = loadConfig({ env: { ...HOME, LOCAL_MODEL_CONFIG: file }, cwd: "/" });
    expect(config).toMatchObject({
      configFile: file,
      roots: [join(dir.path, "project"), join(dir.path, "other")],
      confidenceThreshold: 0.8,
      strictSchema: false,
      templatesDir: join(dir.path, "templates"),
      logLevel: "warn",
      stateDir: join(dir.path, "state"),
      model: { kind: "remote", baseUrl: "http://localhost:11434/v1", model: "qwen2.5-coder:7b", maxTokens: 1024 },
    });
    const overridden = loadConfig({
      env: { ...HOME, LOCAL_MODEL_CONFIG: file, LOCAL_MODEL_CONFIDENCE_THRESHOLD: "0.5", LOCAL_MODEL_MODEL_PATH: "models/m.gguf", LOCAL_MODEL_MODEL_THREADS: "1", LOCAL_MODEL_ROOTS: join(dir.path, "other") },
      cwd: dir.path,
    });
    expect(overridden).toMatchObject({
      confidenceThreshold: 0.5,
      roots: [join(dir.path, "other")],
      model: { kind: "llama", path: join(dir.path, "models/m.gguf"), threads: 1, contextSize: 8192, gpu: "auto", preload: false },
    });
  });

  it("finds local-model.config.json in the working directory", async () => {
    await writeFile(join(dir.path, "project", "local-model.config.json"), JSON.stringify({ model: { path: "tiny.gguf", threads: 1, context_size: 2048 }, timeout_ms: 5000 }));
    const config = loadConfig({ env: HOME, cwd: join(dir.path, "project") });
    expect(config).toMatchObject({ timeoutMs: 5000, model: { kind: "llama", path: join(dir.path, "project", "tiny.gguf"), threads: 1, contextSize: 2048 } });
  });

  it("names what is wrong: a bad variable, an unknown key, both model kinds, a missing root", async () => {
    expect(() => loadConfig({ env: { ...HOME, LOCAL_MODEL_TIMEOUT_MS: "soon" }, cwd: dir.path })).toThrow(/LOCAL_MODEL_TIMEOUT_MS/);
    const typo = join(dir.path, "typo.json");
    await writeFile(typo, JSON.stringify({ timeout: 5 }));
    expect(() => loadConfig({ env: HOME, cwd: dir.path, configFile: typo })).toThrow(ConfigError);
    expect(() => loadConfig({ env: HOME, cwd: dir.path, configFile: typo })).toThrow(/timeout/);
    const both = join(dir.path, "both.json");
    await writeFile(both, JSON.stringify({ model: { path: "a.gguf" }, remote: { base_url: "http://127.0.0.1:8080/v1", model: "m" } }));
    expect(() => loadConfig({ env: HOME, cwd: dir.path, configFile: both })).toThrow(/both model.path and a remote endpoint/);
    expect(() => loadConfig({ env: { ...HOME, LOCAL_MODEL_ROOTS: join(dir.path, "nope") }, cwd: dir.path })).toThrow(/does not exist/);
    expect(() => loadConfig({ env: HOME, cwd: dir.path, configFile: join(dir.path, "missing.json") })).toThrow(/Cannot read the config file/);
  });
});

describe("loadConfig: a project's own local-model.config.json may only narrow (issue #13 item 2)", () => {
  it("takes roots inside the working directory and a state_dir inside them; a file the user named may widen", async () => {
    const cwd = join(dir.path, "narrow");
    await mkdir(join(cwd, "sub"), { recursive: true });
    await writeFile(join(cwd, "local-model.config.json"), JSON.stringify({ roots: ["sub"], state_dir: "sub/.state" }));
    expect(loadConfig({ env: HOME, cwd })).toMatchObject({ configSource: "project", roots: [join(cwd, "sub")], stateDir: join(cwd, "sub", ".state") });
    const wide = join(dir.path, "wide.json");
    await writeFile(wide, JSON.stringify({ roots: ["/"], state_dir: join(dir.path, "state") }));
    expect(loadConfig({ env: { ...HOME, LOCAL_MODEL_CONFIG: wide }, cwd })).toMatchObject({ configSource: "trusted", roots: ["/"], stateDir: join(dir.path, "state") });
  });

  it("refuses roots outside the working directory (or LOCAL_MODEL_ROOTS) and a state_dir elsewhere", async () => {
    const cwd = join(dir.path, "widen");
    await mkdir(join(cwd, "sub"), { recursive: true });
    const file = join(cwd, "local-model.config.json");
    await writeFile(file, JSON.stringify({ roots: ["/"] }));
    expect(() => loadConfig({ env: HOME, cwd })).toThrow(/roots \/ lie outside/);
    await writeFile(file, JSON.stringify({ roots: [".."] }));
    expect(() => loadConfig({ env: { ...HOME, LOCAL_MODEL_ROOTS: join(cwd, "sub") }, cwd })).not.toThrow();
    await writeFile(file, JSON.stringify({ state_dir: join(dir.path, "elsewhere") }));
    expect(() => loadConfig({ env: { ...HOME, LOCAL_MODEL_ROOTS: cwd }, cwd })).toThrow(/state_dir/);
    // The default state folder stays allowed.
    await writeFile(file, JSON.stringify({ state_dir: "/home/ada/.local/state/local-model/project-a" }));
    expect(loadConfig({ env: HOME, cwd }).stateDir).toBe("/home/ada/.local/state/local-model/project-a");
  });
});
