/**
 * The JSON Schema validator core gives the SDK's Server. The Server checks a client's
 * elicitation answer against the schema the server asked with; by default it builds an Ajv
 * instance (with ajv-formats) for that in its constructor, which costs every start and every HTTP
 * session time for a feature that is rarely used. Elicitation schemas are flat objects of
 * primitives, which zod (loaded anyway) converts and checks: `z.fromJSONSchema`, compiled once per
 * schema. So a server never needs Ajv, and a bundle may leave the SDK's Ajv provider out.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/server";
import { z } from "zod";

export const zodJsonSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const checked = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    return (input: unknown) => {
      const result = checked.safeParse(input);
      if (result.success) return { valid: true, data: result.data as T, errorMessage: undefined };
      const message = result.error.issues
        .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(value)"}: ${issue.message}`)
        .join("; ");
      return { valid: false, data: undefined, errorMessage: message };
    };
  },
};
