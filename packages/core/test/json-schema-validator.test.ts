// The Server's JSON Schema validator (zod, not Ajv): an elicitation answer is checked against the
// schema the server asked with, through a real SDK client.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createServer } from "../src/index.js";
import { zodJsonSchemaValidator } from "../src/server/json-schema-validator.js";

const requestedSchema = {
  type: "object" as const,
  properties: {
    name: { type: "string" as const, minLength: 2 },
    age: { type: "integer" as const, minimum: 0 },
    color: { type: "string" as const, enum: ["red", "green"] },
    email: { type: "string" as const, format: "email" as const },
    subscribe: { type: "boolean" as const },
  },
  required: ["name"],
};

async function elicit(answer: Record<string, unknown>) {
  const created = createServer({ name: "elicit", version: "0.0.0", tools: [] });
  const client = new Client({ name: "t", version: "0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler("elicitation/create", () => ({
    action: "accept",
    content: answer as Record<string, string | number | boolean | string[]>,
  }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await created.server.connect(b);
  await client.connect(a);
  try {
    return await created.server.elicitInput({ message: "who are you?", requestedSchema });
  } finally {
    await client.close();
    await created.cleanup();
  }
}

describe("the server's JSON Schema validator", () => {
  it("accepts an elicitation answer that matches the requested schema", async () => {
    const result = await elicit({ name: "Ada", age: 36, color: "green", email: "ada@example.org", subscribe: true });
    expect(result).toMatchObject({ action: "accept", content: { name: "Ada", age: 36 } });
  });

  it.each([
    [{ name: "A" }, /name/],
    [{ age: 3 }, /name/],
    [{ name: "Ada", age: -1 }, /age/],
    [{ name: "Ada", age: 1.5 }, /age/],
    [{ name: "Ada", color: "blue" }, /color/],
    [{ name: "Ada", email: "not an address" }, /email/],
  ])("refuses %j, naming the field", async (answer, field) => {
    await expect(elicit(answer)).rejects.toThrow(field);
  });

  it("compiles a schema once and reports every issue", () => {
    const validate = zodJsonSchemaValidator.getValidator<{ name: string }>(requestedSchema);
    expect(validate({ name: "Bo" })).toEqual({ valid: true, data: { name: "Bo" }, errorMessage: undefined });
    const refused = validate({ name: 1, age: "x" });
    expect(refused.valid).toBe(false);
    expect(refused.errorMessage).toMatch(/name: .*; age: /);
  });
});
