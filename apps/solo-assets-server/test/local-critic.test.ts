/**
 * The local critic: a GGUF model through core's LlamaEngine (node-llama-cpp), here the tiny
 * generated model from core's testing helpers. Its scores are noise — what is checked is that a
 * save runs it, it answers with the verdict's three scores, the gate applies the threshold, and
 * the answer names the local critic that ran.
 */
import { writeTinyLlamaGguf } from "@local-mcp/core/testing";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveView, step } from "./helpers/gate-views.js";
import { callTool, connectSolo, tempLibrary } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

let library: TempLibrary;
let modelPath: string;

beforeAll(async () => {
  library = tempLibrary();
  modelPath = (await writeTinyLlamaGguf(join(library.dir, "tiny-critic.gguf"), { contextLength: 4096 })).path;
});
afterAll(() => library?.remove());

describe("the local critic", () => {
  it("reviews the code with the configured GGUF model and says so", async () => {
    const solo = await connectSolo(library.dbPath, { SOLO_CRITIC: "local", SOLO_CRITIC_MODEL_PATH: modelPath, SOLO_CRITIC_THREADS: "1" });
    try {
      const saved = saveView(
        await callTool(solo.client, "save_function", {
          name: "double",
          code: 'def double(n: int) -> int:\n    """Return twice n."""\n    return n * 2\n',
          description: "Doubles a number",
          test_cases: [{ input: { n: 2 }, expected: 4 }],
          response_level: "full",
        }),
      );
      const critic = step(saved, "critic");
      expect(saved.critic).toBe("local tiny-critic.gguf");
      expect(critic).toMatchObject({ backend: "local", model: "tiny-critic.gguf" });
      // Greedy decoding of the fixed tiny model is deterministic: it gives a verdict, not an error.
      expect(["passed", "failed"]).toContain(critic.status);
      for (const value of Object.values(critic.scores ?? {})) expect(value).toBeGreaterThanOrEqual(0);
      expect(Object.keys(critic.scores ?? {}).sort()).toEqual(["docstring", "readability", "reusability"]);
      expect(saved.status).toBe(critic.status === "passed" ? "active" : "broken");
      console.log(`local critic on the tiny model: ${critic.status} — ${critic.summary}`);
    } finally {
      await solo.close();
    }
  });
});
