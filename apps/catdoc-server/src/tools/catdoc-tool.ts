/**
 * What every CatDoc tool file shares: `catdocXTool(project)` builds core's tool definition for one
 * project (its handler reaches the project through that closure) and hands it to `withToolErrors`,
 * which turns CatDoc's domain errors into ToolErrors in this one place. tools/index.ts lists the
 * factories, so tests and docs can enumerate the tools of any project.
 */
import type { ToolDefinition } from "@local-mcp/core";
import type { z } from "zod";
import { asToolError } from "../errors-to-tool.js";

/** The definition with its handler's domain errors thrown as ToolErrors; the schemas stay lazy. */
export function withToolErrors<I extends z.ZodObject, O extends z.ZodObject>(definition: ToolDefinition<I, O>): ToolDefinition<I, O> {
  const { handler } = definition;
  // Property descriptors, not a spread: a spread would call the `input`/`output` getters and build
  // every tool's schemas at start-up (they are built on first listing or call, see lazySchema).
  const wrapped = Object.defineProperties({}, Object.getOwnPropertyDescriptors(definition)) as ToolDefinition<I, O>;
  wrapped.handler = async (input, ctx) => {
    try {
      return await handler(input, ctx);
    } catch (error) {
      throw asToolError(error);
    }
  };
  return wrapped;
}
