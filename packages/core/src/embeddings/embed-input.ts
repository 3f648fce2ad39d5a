import { ToolError } from "../errors.js";
import { EMBED_TASKS } from "./embedder.js";
import type { EmbedOptions } from "./embedder.js";

/**
 * Checks the arguments of `Embedder.embed` at the boundary (callers may be plain JavaScript or
 * tool handlers passing model-written input), so every backend fails the same way.
 */
export function checkEmbedInput(texts: unknown, options: unknown): asserts options is EmbedOptions {
  if (!Array.isArray(texts)) {
    throw new ToolError("INVALID_INPUT", "texts must be an array of strings.");
  }
  const bad = texts.findIndex((text) => typeof text !== "string");
  if (bad >= 0) {
    throw new ToolError("INVALID_INPUT", `texts[${bad}] is not a string.`, { details: { index: bad } });
  }
  const task = (options as { task?: unknown } | undefined)?.task;
  if (!EMBED_TASKS.includes(task as never)) {
    throw new ToolError("INVALID_INPUT", `task must be one of ${EMBED_TASKS.join(", ")}; got ${String(task)}.`);
  }
}
