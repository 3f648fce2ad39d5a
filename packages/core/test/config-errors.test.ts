import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, ERROR_STATUS, ToolError, createLogger, parseCommonConfig, parseEnvConfig } from "../src/index.js";

describe("parseEnvConfig", () => {
  const schema = z.object({
    modelPath: z.string().optional(),
    threads: z.coerce.number().int().min(1).default(1),
    gpu: z.enum(["auto", "cpu"]).default("auto"),
  });

  it("reads only the prefixed variables from the env it is given", () => {
    const config = parseEnvConfig("MOCHI_", schema, { MOCHI_MODEL_PATH: "/m.gguf", MOCHI_THREADS: "4", OTHER_THREADS: "9" });
    expect(config).toEqual({ modelPath: "/m.gguf", threads: 4, gpu: "auto" });
  });

  it("treats empty values as unset", () => {
    expect(parseEnvConfig("MOCHI_", schema, { MOCHI_THREADS: "" }).threads).toBe(1);
  });

  it("names the variable in a bad-value error", () => {
    try {
      parseEnvConfig("MOCHI_", schema, { MOCHI_GPU: "tpu", MOCHI_THREADS: "0" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain("MOCHI_GPU");
      expect((error as ConfigError).issues.map((i) => i.variable).sort()).toEqual(["MOCHI_GPU", "MOCHI_THREADS"]);
    }
  });

  it("parses the common LOCAL_MCP_ settings", () => {
    expect(parseCommonConfig({})).toEqual({ responseLevel: "minimal", logLevel: "info", resourcePollMs: 2_000 });
    expect(parseCommonConfig({ LOCAL_MCP_RESOURCE_POLL_MS: "250" }).resourcePollMs).toBe(250);
    expect(() => parseCommonConfig({ LOCAL_MCP_RESOURCE_POLL_MS: "10" })).toThrow(/LOCAL_MCP_RESOURCE_POLL_MS/);
    expect(parseCommonConfig({ LOCAL_MCP_RESPONSE_LEVEL: "full" }).responseLevel).toBe("full");
    expect(() => parseCommonConfig({ LOCAL_MCP_RESPONSE_LEVEL: "max" })).toThrow(/LOCAL_MCP_RESPONSE_LEVEL/);
  });
});

describe("ToolError", () => {
  it("maps every code to its status (contract)", () => {
    expect(ERROR_STATUS).toEqual({
      INVALID_INPUT: 400,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      CONFLICT: 409,
      INTERNAL: 500,
      UPSTREAM_ERROR: 502,
      NOT_READY: 503,
      TIMEOUT: 504,
      RESOURCE_EXHAUSTED: 507,
    });
  });

  it("renders the body {error: {code, status, message, recoverable, suggestion}}", () => {
    expect(new ToolError("FORBIDDEN", "Path escapes the root").toBody()).toEqual({
      error: {
        code: "FORBIDDEN",
        status: 403,
        message: "Path escapes the root",
        recoverable: false,
        suggestion: "Use a path or operation inside what this server is configured to allow.",
      },
    });
  });
});

describe("the stderr logger", () => {
  it("writes level, name and fields, and redacts secrets", () => {
    const lines: string[] = [];
    const logger = createLogger({ name: "t", level: "info", write: (l) => lines.push(l) });
    logger.debug("hidden");
    logger.info("hello", { apiKey: "AIza-secret", count: 2 });
    logger.child("sub").warn("careful");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/INFO \[t\] hello \{"apiKey":"\[redacted\]","count":2\}\n$/);
    expect(lines[1]).toMatch(/WARN \[t:sub\] careful/);
    expect(lines.join("")).not.toContain("AIza-secret");
  });
});
