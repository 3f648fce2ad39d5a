/**
 * The critic step on Gemini: the real @google/genai client against a loopback fake of
 * generateContent, inside real saves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGeminiGenerate } from "./fixtures/fake-gemini-generate.js";
import type { FakeGeminiGenerate } from "./fixtures/fake-gemini-generate.js";
import { saveView, step } from "./helpers/gate-views.js";
import { callTool, connectSolo, tempLibrary } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const KEY = "test-key-critic-0123456789";
const CODE = 'def double(n: int) -> int:\n    """Return twice n."""\n    return n * 2\n';

let fake: FakeGeminiGenerate;
let library: TempLibrary;

beforeAll(async () => {
  fake = await startFakeGeminiGenerate();
  library = tempLibrary();
});
afterAll(async () => {
  await fake?.close();
  library?.remove();
});

async function saveWithCritic(model?: string) {
  const solo = await connectSolo(library.dbPath, {
    GOOGLE_API_KEY: KEY,
    SOLO_CRITIC: "gemini",
    SOLO_GEMINI_BASE_URL: fake.baseUrl,
    SOLO_CRITIC_MODEL: model,
  });
  try {
    return saveView(
      await callTool(solo.client, "save_function", {
        name: "double",
        code: CODE,
        description: "Doubles a number",
        test_cases: [{ input: { n: 2 }, expected: 4 }],
        response_level: "full",
      }),
    );
  } finally {
    await solo.close();
  }
}

describe("the Gemini critic", () => {
  it("scores the code and passes it at or above 80; the answer says which critic ran", async () => {
    fake.answer('```json\n{"readability": 92, "docstring": 80, "reusability": 85, "comments": "Clear."}\n```');
    const saved = await saveWithCritic();
    expect(saved.status).toBe("active");
    expect(saved.critic).toBe("gemini gemma-3-27b-it");
    const critic = step(saved, "critic");
    expect(critic).toMatchObject({ status: "passed", backend: "gemini", model: "gemma-3-27b-it", score: 86 });
    expect(critic.scores).toEqual({ readability: 92, docstring: 80, reusability: 85 });
    const request = fake.requests.at(-1);
    expect(request?.model).toBe("gemma-3-27b-it");
    expect(request?.apiKey).toBe(KEY);
    expect(request?.prompt).toContain("return n * 2");
    // Gemma has no JSON mode: none is asked for.
    expect(request?.generationConfig.responseMimeType).toBeUndefined();
  });

  it("rejects code scored below the threshold, with the critic's comments", async () => {
    fake.answer('{"readability": 70, "docstring": 40, "reusability": 75, "comments": "The docstring omits the argument."}');
    const saved = await saveWithCritic();
    expect(saved.status).toBe("broken");
    expect(saved.rejection).toMatchObject({ step: "critic", kind: "critic_rejected", details: "The docstring omits the argument." });
    expect(step(saved, "critic").score).toBe(62);
  });

  it("asks Gemini models for JSON with the verdict's schema", async () => {
    fake.answer('{"readability": 95, "docstring": 95, "reusability": 95, "comments": ""}');
    const saved = await saveWithCritic("gemini-2.5-flash");
    expect(saved.critic).toBe("gemini gemini-2.5-flash");
    expect(fake.requests.at(-1)?.generationConfig.responseMimeType).toBe("application/json");
  });

  it("leaves the function unverified when the critic fails, without leaking the key", async () => {
    fake.failNext(400);
    const saved = await saveWithCritic();
    expect(saved.status).toBe("unverified");
    expect(step(saved, "critic").status).toBe("error");
    expect(JSON.stringify(saved)).not.toContain(KEY);
  });
});
