/**
 * A CatDoc tool: core's tool definition whose handler also receives the project access. The
 * definition is a plain object (one per file, listed in tools/index.ts, so tests and docs can
 * enumerate them); `bindCatDocTool` gives core the handler it calls, with CatDoc's domain
 * errors turned into ToolErrors in this one place.
 */
import type { ToolContext, ToolDefinition, ToolResponse } from "@local-mcp/core";
import type { z } from "zod";
import { asToolError } from "../errors-to-tool.js";
import type { ProjectAccess } from "../project-access.js";

export interface CatDocToolContext extends ToolContext {
  project: ProjectAccess;
}

export interface CatDocToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject>
  extends Omit<ToolDefinition<I, O>, "handler"> {
  handler: (input: z.infer<I>, ctx: CatDocToolContext) => Promise<ToolResponse>;
}

// Tool lists are heterogeneous; binding needs only the erased shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCatDocTool = CatDocToolDefinition<any, any>;

/** Identity helper that keeps the handler's input type tied to its schema. */
export function defineCatDocTool<I extends z.ZodObject, O extends z.ZodObject>(definition: CatDocToolDefinition<I, O>): CatDocToolDefinition<I, O> {
  return definition;
}

export function bindCatDocTool<I extends z.ZodObject, O extends z.ZodObject>(tool: CatDocToolDefinition<I, O>, project: ProjectAccess): ToolDefinition<I, O> {
  const { handler } = tool;
  // Property descriptors, not a spread: a spread would call the `input`/`output` getters and build
  // every tool's schemas at start-up (they are built on first listing or call, see lazySchema).
  const bound = Object.defineProperties({}, Object.getOwnPropertyDescriptors(tool)) as ToolDefinition<I, O>;
  bound.handler = async (input, ctx) => {
    try {
      return await handler(input, { ...ctx, project });
    } catch (error) {
      throw asToolError(error);
    }
  };
  return bound;
}
