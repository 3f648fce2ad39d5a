import { rmSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { connectInProcess } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMochiConfig } from "../src/config.js";
import { createMochiServer } from "../src/server.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { resourceText } from "./helpers/resource-text.js";
import { TEST_ENV, writeTinyModelFiles, type TinyModelFiles } from "./helpers/tiny-model.js";

// createMochiServer(config) with no shared runtime: the server makes its own, starts it and
// disposes of it on close (the other tests hand in a runtime shared as mochi-mcp's sessions do).
let repo: string;
let model: TinyModelFiles;

beforeAll(async () => {
  repo = copyFixtureRepo();
  await indexInto(repo);
  model = await writeTinyModelFiles();
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(model.dir, { recursive: true, force: true });
});

describe("createMochiServer without a runtime", () => {
  it("starts a runtime of its own (the model loads in the background) and closes it with the server", async () => {
    const config = loadMochiConfig({ ...TEST_ENV, MOCHI_MODEL: model.fimModel, MOCHI_ADAPTER: model.lora }, repo);
    const connection = await connectInProcess(createMochiServer(config));
    try {
      const readiness = async () =>
        (
          JSON.parse(resourceText(await connection.client.readResource({ uri: "mochi://stats" }))) as {
            model: { readiness: { state: string } };
          }
        ).model.readiness.state;
      // Loading began without anyone calling start(); wait for its end (bounded), not a fixed time.
      const deadline = performance.now() + 30_000;
      let state = await readiness();
      while (state !== "ready" && state !== "failed" && performance.now() < deadline) {
        await delay(20);
        state = await readiness();
      }
      expect(state).toBe("ready");
      const result = (await connection.client.callTool({
        name: "complete_code",
        arguments: { prefix: "export function " },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const suggested = (await connection.client.callTool({
        name: "suggest_pattern",
        arguments: { goal: "register handlers" },
      })) as CallToolResult;
      expect(suggested.isError).toBeFalsy();
    } finally {
      await connection.close();
    }
  });
});
