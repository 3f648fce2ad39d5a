/** config.ts: paths, precedence, validation, and what the gate's tools may see. */
import { ConfigError } from "@local-mcp/core";
import { describe, expect, it } from "vitest";
import { loadSoloAssetsConfig } from "../src/config.js";
import { resolveSettings } from "../src/domain/settings/effective-settings.js";

describe("the solo-assets configuration", () => {
  it("keeps the library under the XDG data directory, else ~/.local/share", () => {
    expect(loadSoloAssetsConfig({ HOME: "/home/ada", XDG_DATA_HOME: "/data/xdg" }, process.cwd()).paths).toMatchObject({
      dbPath: "/data/xdg/local-mcp/solo-assets.duckdb",
      envsDir: "/data/xdg/local-mcp/solo-assets-envs",
      settingsPath: "/data/xdg/local-mcp/solo-assets.settings.json",
      apiKeyPath: "/data/xdg/local-mcp/solo-assets.gemini-key",
    });
    expect(loadSoloAssetsConfig({ HOME: "/home/ada" }, process.cwd()).paths.dbPath).toBe(
      "/home/ada/.local/share/local-mcp/solo-assets.duckdb",
    );
  });

  it("takes SOLO_DB_PATH (relative to the working directory) and derives the other files from it", () => {
    const config = loadSoloAssetsConfig({ HOME: "/home/ada", SOLO_DB_PATH: "libs/mine.duckdb" }, "/work");
    expect(config.paths.dbPath).toBe("/work/libs/mine.duckdb");
    expect(config.paths.processesDir).toBe("/work/libs/mine.processes");
  });

  it("refuses a bad value, naming the variable", () => {
    expect(() => loadSoloAssetsConfig({ SOLO_TEST_TIMEOUT_MS: "soon" }, process.cwd())).toThrow(ConfigError);
    expect(() => loadSoloAssetsConfig({ SOLO_CRITIC: "maybe" }, process.cwd())).toThrow(/SOLO_CRITIC/);
  });

  it("hands the gate's tools an environment without secrets (pip's own settings stay)", () => {
    const config = loadSoloAssetsConfig(
      { PATH: "/usr/bin", GOOGLE_API_KEY: "k", GITHUB_TOKEN: "t", AWS_SECRET_ACCESS_KEY: "s", PIP_INDEX_URL: "https://u:p@idx/simple" },
      process.cwd(),
    );
    expect(config.toolEnv).toEqual({ PATH: "/usr/bin", PIP_INDEX_URL: "https://u:p@idx/simple" });
    expect(config.geminiApiKey).toBe("k");
  });

  it("chooses Gemini for embeddings and the critic when a key is known, the offline backends otherwise", () => {
    const none = resolveSettings(loadSoloAssetsConfig({}, process.cwd()), {}, undefined);
    expect(none.embedding.backend).toBe("local");
    expect(none.critic.backend).toBe("off");
    const fromFile = resolveSettings(loadSoloAssetsConfig({}, process.cwd()), { critic: "gemini" }, "file-key");
    expect(fromFile).toMatchObject({
      embedding: { backend: "gemini", dimension: 768 },
      critic: { backend: "gemini", model: "gemma-3-27b-it", source: "settings file" },
      apiKey: { source: "settings file" },
    });
    const envWins = resolveSettings(
      loadSoloAssetsConfig({ GEMINI_API_KEY: "env-key", SOLO_CRITIC: "off" }, process.cwd()),
      { critic: "gemini" },
      "file-key",
    );
    expect(envWins).toMatchObject({
      critic: { backend: "off", source: "environment" },
      apiKey: { source: "environment", value: "env-key" },
    });
    const noKey = resolveSettings(loadSoloAssetsConfig({ SOLO_EMBEDDER: "gemini" }, process.cwd()), {}, undefined);
    expect(noKey.embedding).toMatchObject({ backend: "local" });
    expect(noKey.embedding.note).toMatch(/no API key/);
  });
});
