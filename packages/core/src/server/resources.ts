import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import {
  ErrorCode as RpcErrorCode,
  McpError,
  type CompleteRequest,
  type CompleteResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "../errors.js";
import {
  RESOURCE_VERSION_META,
  renderResourceBody,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from "../resource-definition.js";

/** JSON-RPC error code the MCP spec gives to an unknown resource. */
export const RESOURCE_NOT_FOUND = -32002;
const MAX_COMPLETIONS = 100;

/** Resource handlers for one server: listing, templates, reads with content-hash versions, completion. */
export function createResourceHandlers(
  resources: readonly ResourceDefinition[],
  templates: readonly ResourceTemplateDefinition[],
) {
  const compiled = templates.map((t) => ({ definition: t, template: new UriTemplate(t.uriTemplate) }));
  const byUri = new Map(resources.map((r) => [r.uri, r]));

  const list = async (): Promise<ListResourcesResult> => {
    const listed = resources.map(({ uri, name, title, description, mimeType }) => ({
      uri,
      name,
      mimeType,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
    }));
    for (const { definition } of compiled) {
      for (const item of (await definition.list?.()) ?? []) listed.push({ mimeType: definition.mimeType, ...item });
    }
    return { resources: listed };
  };

  const listTemplates = (): ListResourceTemplatesResult => ({
    resourceTemplates: templates.map(({ uriTemplate, name, title, description, mimeType }) => ({
      uriTemplate,
      name,
      mimeType,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
    })),
  });

  const read = async (uri: string): Promise<ReadResourceResult> => {
    const { definition, body } = await readBody(uri);
    const rendered = renderResourceBody(body);
    const { version, ...payload } = rendered;
    return {
      contents: [{ uri, mimeType: definition.mimeType, ...payload, _meta: { [RESOURCE_VERSION_META]: version } }],
    };
  };

  const readBody = async (uri: string) => {
    try {
      const fixed = byUri.get(uri);
      if (fixed) return { definition: fixed as { mimeType: string }, body: await fixed.read() };
      for (const { definition, template } of compiled) {
        const variables = template.match(uri);
        if (variables) {
          const flat = Object.fromEntries(
            Object.entries(variables).map(([k, v]) => [k, decodeURIComponent(Array.isArray(v) ? v.join("/") : v)]),
          );
          return { definition, body: await definition.read(flat, new URL(uri)) };
        }
      }
    } catch (error) {
      if (error instanceof ToolError && error.code === "NOT_FOUND") {
        throw new McpError(RESOURCE_NOT_FOUND, error.message, { uri });
      }
      if (error instanceof ToolError) throw new McpError(RpcErrorCode.InternalError, `${error.code}: ${error.message}`, { uri });
      throw error;
    }
    throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}. Call resources/list to see what exists.`, { uri });
  };

  const complete = async (params: CompleteRequest["params"]): Promise<CompleteResult> => {
    const empty = { completion: { values: [], hasMore: false, total: 0 } };
    if (params.ref.type !== "ref/resource") return empty;
    const uri = params.ref.uri;
    const definition = templates.find((t) => t.uriTemplate === uri);
    const completer = definition?.complete?.[params.argument.name];
    if (!completer) return empty;
    const all = await completer(params.argument.value);
    return { completion: { values: all.slice(0, MAX_COMPLETIONS), total: all.length, hasMore: all.length > MAX_COMPLETIONS } };
  };

  return { list, listTemplates, read, complete };
}
