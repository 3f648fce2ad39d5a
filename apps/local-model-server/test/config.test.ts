import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "@local-mcp/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadLocalModelConfig } from "../src/config.js";
import { TemplateStore } from "../src/domain/templates/template-store.js";
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

describe("loadLocalModelConfig", () => {
  it("defaults: the working directory as root, no model, the seed's threshold, timeouts and retries", () => {
    const config = loadLocalModelConfig(HOME, join(dir.path, "project"));
    expect(config).toMatchObject({
      configFile: undefined,
      roots: [join(dir.path, "project")],
      maxFileBytes: 1024 * 1024,
      timeoutMs: 30_000,
      maxRetries: 2,
      confidenceThreshold: 0.7,
      strictSchema: true,
      confidencePolicy: "require",
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
        validation: { confidence_threshold: 0.8, strict_schema: false, confidence: "optional" },
        templates_dir: "./templates",
        logging: { level: "warn", token_tracking: true },
        roots: ["project", "other"],
        state_dir: "state",
      }),
    );
    const config = loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIG: file }, "/");
    expect(config).toMatchObject({
      configFile: file,
      roots: [join(dir.path, "project"), join(dir.path, "other")],
      confidenceThreshold: 0.8,
      strictSchema: false,
      confidencePolicy: "optional",
      templatesDir: join(dir.path, "templates"),
      logLevel: "warn",
      stateDir: join(dir.path, "state"),
      model: { kind: "remote", baseUrl: "http://localhost:11434/v1", model: "qwen2.5-coder:7b", maxTokens: 1024 },
    });
    const overridden = loadLocalModelConfig(
      {
        ...HOME,
        LOCAL_MODEL_CONFIG: file,
        LOCAL_MODEL_CONFIDENCE_THRESHOLD: "0.5",
        LOCAL_MODEL_CONFIDENCE: "require",
        LOCAL_MODEL_MODEL_PATH: "models/m.gguf",
        LOCAL_MODEL_MODEL_THREADS: "1",
        LOCAL_MODEL_ROOTS: join(dir.path, "other"),
      },
      dir.path,
    );
    expect(overridden).toMatchObject({
      confidenceThreshold: 0.5,
      confidencePolicy: "require",
      roots: [join(dir.path, "other")],
      model: { kind: "llama", path: join(dir.path, "models/m.gguf"), threads: 1, contextSize: 8192, gpu: "auto", preload: false },
    });
  });

  it("finds local-model.config.json in the working directory", async () => {
    await writeFile(
      join(dir.path, "project", "local-model.config.json"),
      JSON.stringify({ model: { path: "tiny.gguf", threads: 1, context_size: 2048 }, timeout_ms: 5000 }),
    );
    const config = loadLocalModelConfig(HOME, join(dir.path, "project"));
    expect(config).toMatchObject({
      timeoutMs: 5000,
      model: { kind: "llama", path: join(dir.path, "project", "tiny.gguf"), threads: 1, contextSize: 2048 },
    });
  });

  it("names what is wrong: a bad variable, an unknown key, both model kinds, a missing root", async () => {
    expect(() => loadLocalModelConfig({ ...HOME, LOCAL_MODEL_TIMEOUT_MS: "soon" }, dir.path)).toThrow(/LOCAL_MODEL_TIMEOUT_MS/);
    expect(() => loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIDENCE: "maybe" }, dir.path)).toThrow(/LOCAL_MODEL_CONFIDENCE/);
    const typo = join(dir.path, "typo.json");
    await writeFile(typo, JSON.stringify({ timeout: 5 }));
    expect(() => loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIG: typo }, dir.path)).toThrow(ConfigError);
    expect(() => loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIG: typo }, dir.path)).toThrow(/timeout/);
    const both = join(dir.path, "both.json");
    await writeFile(both, JSON.stringify({ model: { path: "a.gguf" }, remote: { base_url: "http://127.0.0.1:8080/v1", model: "m" } }));
    expect(() => loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIG: both }, dir.path)).toThrow(/both model.path and a remote endpoint/);
    expect(() => loadLocalModelConfig({ ...HOME, LOCAL_MODEL_ROOTS: join(dir.path, "nope") }, dir.path)).toThrow(/does not exist/);
    expect(() => loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIG: join(dir.path, "missing.json") }, dir.path)).toThrow(
      /Cannot read the config file/,
    );
  });
});

describe("loadLocalModelConfig: a project's own local-model.config.json may only narrow (issue #13 item 2)", () => {
  it("takes roots inside the working directory and a state_dir inside them; a file the user named may widen", async () => {
    const cwd = join(dir.path, "narrow");
    await mkdir(join(cwd, "sub"), { recursive: true });
    await writeFile(join(cwd, "local-model.config.json"), JSON.stringify({ roots: ["sub"], state_dir: "sub/.state" }));
    expect(loadLocalModelConfig(HOME, cwd)).toMatchObject({
      configSource: "project",
      roots: [join(cwd, "sub")],
      stateDir: join(cwd, "sub", ".state"),
    });
    const wide = join(dir.path, "wide.json");
    await writeFile(wide, JSON.stringify({ roots: ["/"], state_dir: join(dir.path, "state") }));
    expect(loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIG: wide }, cwd)).toMatchObject({
      configSource: "trusted",
      roots: ["/"],
      stateDir: join(dir.path, "state"),
    });
  });

  it("refuses roots outside the working directory (or LOCAL_MODEL_ROOTS) and a state_dir elsewhere", async () => {
    const cwd = join(dir.path, "widen");
    await mkdir(join(cwd, "sub"), { recursive: true });
    const file = join(cwd, "local-model.config.json");
    await writeFile(file, JSON.stringify({ roots: ["/"] }));
    expect(() => loadLocalModelConfig(HOME, cwd)).toThrow(/roots \/ lie outside/);
    await writeFile(file, JSON.stringify({ roots: [".."] }));
    expect(() => loadLocalModelConfig({ ...HOME, LOCAL_MODEL_ROOTS: join(cwd, "sub") }, cwd)).not.toThrow();
    await writeFile(file, JSON.stringify({ state_dir: join(dir.path, "elsewhere") }));
    expect(() => loadLocalModelConfig({ ...HOME, LOCAL_MODEL_ROOTS: cwd }, cwd)).toThrow(/state_dir/);
    // The default state folder stays allowed.
    await writeFile(file, JSON.stringify({ state_dir: "/home/ada/.local/state/local-model/project-a" }));
    expect(loadLocalModelConfig(HOME, cwd).stateDir).toBe("/home/ada/.local/state/local-model/project-a");
  });
});

describe("loadLocalModelConfig: a project's own local-model.config.json chooses no endpoint and loads nothing from outside the roots", () => {
  const project = () => join(dir.path, "keys");
  const file = () => join(project(), "local-model.config.json");
  beforeAll(async () => {
    await mkdir(join(project(), "templates"), { recursive: true });
  });

  it("refuses remote and ollama endpoints (with their key), naming the file and the key; the same file named by the user may set them", async () => {
    await writeFile(file(), JSON.stringify({ remote: { base_url: "http://127.0.0.1:9/v1", model: "m", api_key: "k" } }));
    expect(() => loadLocalModelConfig(HOME, project())).toThrow(ConfigError);
    expect(() => loadLocalModelConfig(HOME, project())).toThrow(
      /keys\/local-model\.config\.json: remote\.base_url sets the endpoint http:\/\/127\.0\.0\.1:9\/v1; .*may not choose where data is sent/,
    );
    // Even when the environment picks the model (the file's endpoint would be unused), the planted key is refused.
    expect(() =>
      loadLocalModelConfig({ ...HOME, LOCAL_MODEL_REMOTE_BASE_URL: "http://127.0.0.1:11434/v1", LOCAL_MODEL_REMOTE_MODEL: "m" }, project()),
    ).toThrow(/remote\.base_url/);
    expect(loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIG: file() }, project()).model).toMatchObject({
      kind: "remote",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "k",
    });
    await writeFile(file(), JSON.stringify({ ollama: { host: "http://127.0.0.1:9", model: "m" } }));
    expect(() => loadLocalModelConfig(HOME, project())).toThrow(/ollama\.host sets the endpoint/);
    expect(loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIG: file() }, project()).model).toMatchObject({
      kind: "remote",
      baseUrl: "http://127.0.0.1:9/v1",
    });
  });

  it("takes model.path and templates_dir only inside the roots (symlinks resolved); the environment and a named file keep full power", async () => {
    await writeFile(file(), JSON.stringify({ model: { path: "models/m.gguf", threads: 1 }, templates_dir: "templates" }));
    expect(loadLocalModelConfig(HOME, project())).toMatchObject({
      model: { kind: "llama", path: join(project(), "models", "m.gguf"), threads: 1 },
      templatesDir: join(project(), "templates"),
      templatesConfinedTo: [project()],
    });
    await writeFile(file(), JSON.stringify({ model: { path: "/opt/models/m.gguf" } }));
    expect(() => loadLocalModelConfig(HOME, project())).toThrow(/model\.path \/opt\/models\/m\.gguf lies outside the roots/);
    await writeFile(file(), JSON.stringify({ model: { path: "../other/m.gguf" } }));
    expect(() => loadLocalModelConfig(HOME, project())).toThrow(/model\.path/);
    await symlink(join(dir.path, "other"), join(project(), "out"));
    await writeFile(file(), JSON.stringify({ templates_dir: "out/templates" }));
    expect(() => loadLocalModelConfig(HOME, project())).toThrow(/templates_dir .* lies outside the roots/);
    await writeFile(file(), JSON.stringify({ templates_dir: "/etc" }));
    expect(() => loadLocalModelConfig(HOME, project())).toThrow(/templates_dir/);
    // Trusted sources: a named file and the variables.
    expect(loadLocalModelConfig({ ...HOME, LOCAL_MODEL_CONFIG: file() }, project())).toMatchObject({
      templatesDir: "/etc",
      templatesConfinedTo: undefined,
    });
    await writeFile(file(), JSON.stringify({ timeout_ms: 5000 }));
    expect(
      loadLocalModelConfig({ ...HOME, LOCAL_MODEL_MODEL_PATH: "/opt/models/m.gguf", LOCAL_MODEL_TEMPLATES_DIR: "/etc" }, project()),
    ).toMatchObject({
      timeoutMs: 5000,
      templatesDir: "/etc",
      templatesConfinedTo: undefined,
      model: { kind: "llama", path: "/opt/models/m.gguf" },
    });
  });

  it("lets max_file_bytes only lower the cap, and keeps the keys that change no reach", async () => {
    await writeFile(file(), JSON.stringify({ max_file_bytes: 2 * 1024 * 1024 }));
    expect(() => loadLocalModelConfig(HOME, project())).toThrow(/max_file_bytes 2097152 is above 1048576/);
    // Under the cap the user set, the file is allowed (the variable still wins).
    expect(loadLocalModelConfig({ ...HOME, LOCAL_MODEL_MAX_FILE_BYTES: String(4 * 1024 * 1024) }, project()).maxFileBytes).toBe(
      4 * 1024 * 1024,
    );
    await writeFile(
      file(),
      JSON.stringify({
        max_file_bytes: 4096,
        timeout_ms: 5000,
        max_retries: 0,
        validation: { confidence_threshold: 0.9, strict_schema: false },
        logging: { level: "warn", token_tracking: false },
        regex_timeout_ms: 500,
        max_input_chars: 1000,
      }),
    );
    expect(loadLocalModelConfig(HOME, project())).toMatchObject({
      maxFileBytes: 4096,
      timeoutMs: 5000,
      maxRetries: 0,
      confidenceThreshold: 0.9,
      logLevel: "warn",
      tokenTracking: false,
      regexTimeoutMs: 500,
      maxInputChars: 1000,
    });
  });

  it("a project's templates folder cannot use a template that is a symlink out of the roots", async () => {
    await writeFile(join(dir.path, "other", "secret.hbs"), "SECRET {{x}}\n");
    await symlink(join(dir.path, "other", "secret.hbs"), join(project(), "templates", "leak.hbs"));
    await writeFile(join(project(), "templates", "ok.hbs"), "ok {{x}}\n");
    const confined = new TemplateStore(undefined, join(project(), "templates"), [project()]);
    const list = await confined.list();
    expect(list.find((t) => t.name === "leak")?.problem).toMatch(/outside the roots/);
    await expect(confined.load("leak")).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await confined.load("ok")).text).toBe("ok {{x}}\n");
    // Named by the user: symlinks are the user's own choice.
    expect((await new TemplateStore(undefined, join(project(), "templates")).load("leak")).text).toBe("SECRET {{x}}\n");
  });
});
