import type { ReadResourceResult } from "@modelcontextprotocol/client";

/** The text of a resource read's first content; fails the test when it is not text. */
export function resourceText(result: ReadResourceResult): string {
  const content = result.contents[0];
  if (!content || !("text" in content) || typeof content.text !== "string")
    throw new Error(`not a text resource: ${JSON.stringify(result)}`);
  return content.text;
}
