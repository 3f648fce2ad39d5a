import { describe, expect, it } from "vitest";
import { checkJson, schemaProblem } from "../../src/inference/json-check.js";
import { generateValidatedJson } from "../../src/inference/json-generation.js";

describe("a caller's JSON schema", () => {
  it("is refused when a pattern could backtrack without end, before anything is generated", async () => {
    const hostile = { type: "object", properties: { name: { type: "string", pattern: "^(a+)+$" } } };
    expect(schemaProblem(hostile)).toMatch(/pattern "\^\(a\+\)\+\$" could take exponential time/);
    expect(schemaProblem({ type: "object", patternProperties: { "(\\w+\\s?)*$": { type: "string" } } })).toMatch(/exponential time/);
    expect(schemaProblem({ anyOf: [{ items: [{ pattern: "(x+x+)+y" }] }] })).toMatch(/exponential time/);
    let generated = 0;
    await expect(
      generateValidatedJson(
        async () => {
          generated += 1;
          throw new Error("not reached");
        },
        { prompt: { kind: "completion", text: "x" }, schema: hostile },
        { backoffMs: 0 },
      ),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect(generated).toBe(0);
  });

  it("keeps ordinary patterns, and checks answers against them", () => {
    const date = { type: "object", properties: { day: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" } }, required: ["day"] };
    expect(schemaProblem(date)).toBeUndefined();
    expect(checkJson('{"day":"2026-11-26"}', date)).toEqual({ ok: true, value: { day: "2026-11-26" } });
    expect(checkJson('{"day":"26 Nov"}', date)).toMatchObject({ ok: false, error: expect.stringMatching(/must match pattern/) });
    expect(schemaProblem({ type: "object", patternProperties: { "^x-[a-z]+$": { type: "string" } } })).toBeUndefined();
  });
});
