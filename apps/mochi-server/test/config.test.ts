import { ConfigError } from "@local-mcp/core";
import { describe, expect, it } from "vitest";
import { parseByteSize, loadMochiConfig } from "../src/config.js";
import { parseAdapterList } from "../src/domain/model/adapter-spec.js";

describe("MOCHI_ADAPTER syntax", () => {
  it("reads one or more paths with optional scales", () => {
    expect(parseAdapterList("a.gguf")).toEqual([{ path: "a.gguf", scale: 1 }]);
    expect(parseAdapterList("a.gguf:1, b.gguf:0.5")).toEqual([
      { path: "a.gguf", scale: 1 },
      { path: "b.gguf", scale: 0.5 },
    ]);
    expect(parseAdapterList("C:\\models\\a.gguf:0.8,C:/m/b.gguf")).toEqual([
      { path: "C:\\models\\a.gguf", scale: 0.8 },
      { path: "C:/m/b.gguf", scale: 1 },
    ]);
  });

  it("refuses scales out of range and empty lists", () => {
    expect(() => parseAdapterList("a.gguf:9")).toThrow(/scale 9/);
    expect(() => parseAdapterList(" , ")).toThrow(/no adapter/);
  });
});

describe("mochi configuration", () => {
  it("has the documented defaults and resolves paths against the working directory", () => {
    const config = loadMochiConfig({}, "/work/repo");
    expect(config).toMatchObject({
      modelPath: undefined,
      adapters: [],
      catalogPath: "/work/repo/.mochi/catalog.json",
      gpu: "auto",
      contextSize: 4096,
      repositoryContext: true,
      requireAdapter: false,
      memoryBoundBytes: 32 * 1024 ** 3,
      deadlineMs: 5_000,
      responseLevel: "minimal",
    });
  });

  it("reads every variable", () => {
    const config = loadMochiConfig(
      {
        MOCHI_MODEL: "models/base.gguf",
        MOCHI_ADAPTER: "/abs/mochi.gguf:1,style.gguf:0.25",
        MOCHI_CATALOG: "/cat.json",
        MOCHI_GPU: "cpu",
        MOCHI_THREADS: "2",
        MOCHI_CONTEXT_SIZE: "8192",
        MOCHI_CONTEXT: "off",
        MOCHI_REQUIRE_ADAPTER: "yes",
        MOCHI_MEMORY_BOUND: "16GB",
        MOCHI_DEADLINE_MS: "2500",
      },
      "/r",
    );
    expect(config).toMatchObject({
      modelPath: "/r/models/base.gguf",
      adapters: [
        { path: "/abs/mochi.gguf", scale: 1 },
        { path: "/r/style.gguf", scale: 0.25 },
      ],
      catalogPath: "/cat.json",
      gpu: "cpu",
      threads: 2,
      contextSize: 8192,
      repositoryContext: false,
      requireAdapter: true,
      memoryBoundBytes: 16 * 1024 ** 3,
      deadlineMs: 2500,
    });
  });

  it.each([
    [{ MOCHI_MEMORY_BOUND: "lots" }, "MOCHI_MEMORY_BOUND"],
    [{ MOCHI_GPU: "tpu" }, "MOCHI_GPU"],
    [{ MOCHI_CONTEXT: "maybe" }, "MOCHI_CONTEXT"],
    [{ MOCHI_THREADS: "0" }, "MOCHI_THREADS"],
    [{ MOCHI_REQUIRE_ADAPTER: "maybe" }, "MOCHI_REQUIRE_ADAPTER"],
    [{ MOCHI_MODEL: "m.gguf", MOCHI_ADAPTER: ":0.5" }, "MOCHI_ADAPTER"],
    [{ MOCHI_ADAPTER: "a.gguf" }, "MOCHI_MODEL"],
    [{ MOCHI_ADAPTER: "none" }, "MOCHI_MODEL"],
    [{ MOCHI_BACKEND_URL: "http://127.0.0.1:8080/v1" }, "MOCHI_BACKEND_MODEL"],
    [{ MOCHI_BACKEND_URL: "ftp://gpu-box/v1", MOCHI_BACKEND_MODEL: "m" }, "MOCHI_BACKEND_URL"],
    [{ MOCHI_BACKEND_MODEL: "m" }, "MOCHI_BACKEND_URL"],
    [{ MOCHI_BACKEND_API_KEY: "k" }, "MOCHI_BACKEND_URL"],
    [{ MOCHI_BACKEND_URL: "http://h/v1", MOCHI_BACKEND_MODEL: "m", MOCHI_MODEL: "b.gguf" }, "MOCHI_MODEL"],
    [{ MOCHI_BACKEND_URL: "http://h/v1", MOCHI_BACKEND_MODEL: "m", MOCHI_ADAPTER: "a.gguf" }, "MOCHI_ADAPTER"],
    [{ MOCHI_BACKEND_URL: "http://h/v1", MOCHI_BACKEND_MODEL: "m", MOCHI_ADAPTER: "none" }, "MOCHI_ADAPTER"],
  ])("a bad value (%o) is a ConfigError naming %s", (env, variable) => {
    let error: unknown;
    try {
      loadMochiConfig(env, "/r");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(variable);
  });

  it("MOCHI_ADAPTER=none, exactly, serves the stock model; other spellings are adapter paths", () => {
    expect(loadMochiConfig({ MOCHI_MODEL: "b.gguf", MOCHI_ADAPTER: "none" }, "/r")).toMatchObject({ adapters: [], stockModel: true });
    expect(loadMochiConfig({ MOCHI_MODEL: "b.gguf", MOCHI_ADAPTER: "None" }, "/r")).toMatchObject({
      adapters: [{ path: "/r/None", scale: 1 }],
      stockModel: false,
    });
    expect(loadMochiConfig({ MOCHI_MODEL: "b.gguf" }, "/r")).toMatchObject({ adapters: [], stockModel: false, backend: undefined });
  });

  it("MOCHI_BACKEND_URL with MOCHI_BACKEND_MODEL (and an optional key) is the remote backend", () => {
    const config = loadMochiConfig(
      { MOCHI_BACKEND_URL: "http://gpu-box:8080/v1", MOCHI_BACKEND_MODEL: "qwen2.5-coder", MOCHI_BACKEND_API_KEY: "sk-1" },
      "/r",
    );
    expect(config).toMatchObject({
      modelPath: undefined,
      adapters: [],
      stockModel: false,
      backend: { url: "http://gpu-box:8080/v1", model: "qwen2.5-coder", apiKey: "sk-1" },
    });
  });

  it("reads sizes in binary units", () => {
    expect(parseByteSize("32GB")).toBe(32 * 1024 ** 3);
    expect(parseByteSize("32G")).toBe(32 * 1024 ** 3);
    expect(parseByteSize("512MiB")).toBe(512 * 1024 ** 2);
    expect(parseByteSize("1024")).toBe(1024);
    expect(parseByteSize("-1GB")).toBeUndefined();
  });
});
