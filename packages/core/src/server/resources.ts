import {
  ProtocolError,
  ProtocolErrorCode as RpcErrorCode,
  ResourceNotFoundError,
  UriTemplate,
  type CompleteRequest,
  type CompleteResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
} from "@modelcontextprotocol/server";
import { ToolError } from "../errors.js";
import type { Logger } from "../logger.js";
import {
  RESOURCE_VERSION_META,
  contentHash,
  renderResourceBody,
  stableStringify,
  type ResourceBody,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from "../resource-definition.js";
import { paginate, type PageLimits } from "./resource-pages.js";
import { RESOURCE_PART_META, oversizeSuggestion, parsePartUri, readTokensAbove, renderPart, resourceTooLarge } from "./resource-reads.js";

/**
 * JSON-RPC error code of an unknown resource: -32602 Invalid params on every protocol revision
 * (the 2026-07-28 spec's MUST; the SDK maps a thrown -32002, the 2025 code, to it).
 */
export const RESOURCE_NOT_FOUND = RpcErrorCode.InvalidParams;
const MAX_COMPLETIONS = 100;

export interface ResourceHandlerOptions {
  /** Most o200k tokens of the JSON one read may have; see resource-reads.ts. */
  maxTokens: number;
  /** Most tokens of one part of a text split because it is above `maxTokens`. */
  partTokens: number;
  /** Limits of one page of resources/list and resources/templates/list; see resource-pages.ts. */
  page: PageLimits;
  logger?: Logger;
}

interface ResolvedBody {
  definition: ResourceDefinition | ResourceTemplateDefinition;
  variables: Record<string, string>;
  body: ResourceBody;
}

/**
 * Resource handlers for one server: listing a page at a time, templates, reads with content-hash
 * versions (split into parts or refused above the budget), completion.
 */
export function createResourceHandlers(
  resources: readonly ResourceDefinition[],
  templates: readonly ResourceTemplateDefinition[],
  options: ResourceHandlerOptions,
) {
  const compiled = templates.map((t) => ({ definition: t, template: new UriTemplate(t.uriTemplate) }));
  const byUri = new Map(resources.map((r) => [r.uri, r]));
  const warnDropped = (what: string, dropped: number) => {
    if (dropped > 0) options.logger?.warn(`${what}: ${dropped} entries left out, each bigger than a page`);
  };

  const everything = async () => {
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
    return listed;
  };

  const list = async (cursor?: string): Promise<ListResourcesResult> => {
    const page = paginate(await everything(), cursor, options.page, "resources/list");
    warnDropped("resources/list", page.dropped);
    return {
      resources: page.items,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      _meta: { [RESOURCE_VERSION_META]: page.version },
    };
  };

  const listTemplates = (cursor?: string): ListResourceTemplatesResult => {
    const listed = templates.map(({ uriTemplate, name, title, description, mimeType }) => ({
      uriTemplate,
      name,
      mimeType,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
    }));
    const page = paginate(listed, cursor, options.page, "resources/templates/list");
    warnDropped("resources/templates/list", page.dropped);
    return {
      resourceTemplates: page.items,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      _meta: { [RESOURCE_VERSION_META]: page.version },
    };
  };

  const read = async (requested: string): Promise<ReadResourceResult> => {
    const partRequest = parsePartUri(requested);
    const uri = partRequest?.base ?? requested;
    const { definition, variables, body } = await readBody(uri);
    const rendered = renderResourceBody(body);
    const { version, ...payload } = rendered;
    const whole: ReadResourceResult = {
      contents: [{ uri, mimeType: definition.mimeType, ...payload, _meta: { [RESOURCE_VERSION_META]: version } }],
    };
    const over = await readTokensAbove(whole, options.maxTokens);
    if (over === undefined) {
      if (partRequest) {
        throw new ResourceNotFoundError(
          requested,
          `Resource not found: ${requested}. ${uri} fits in one read and has no parts; read ${uri}.`,
        );
      }
      return whole;
    }
    const tokens = over;
    const suggestion = oversizeSuggestion(definition.oversize, uri, variables);
    const isJson = "json" in body || /^application\/(.+\+)?json\b/i.test(definition.mimeType);
    const mode = "text" in payload ? (definition.oversize?.mode ?? (isJson ? "refuse" : "parts")) : "refuse";
    const refuse = () => {
      options.logger?.warn(`resource ${uri} withheld: ~${tokens} tokens, above ${options.maxTokens}`);
      return resourceTooLarge(uri, tokens, options.maxTokens, suggestion);
    };
    if (mode === "refuse" || !("text" in payload)) throw refuse();
    const part = await renderPart(
      { uri, text: payload.text, tokens, maxTokens: options.maxTokens, suggestion, version },
      partRequest?.part ?? 1,
      options.partTokens,
    );
    if (!part) throw refuse();
    const result: ReadResourceResult = {
      contents: [
        {
          uri: requested,
          mimeType: isJson ? "text/plain" : definition.mimeType,
          text: part.text,
          _meta: {
            [RESOURCE_VERSION_META]: version,
            [RESOURCE_PART_META]: { part: part.part, parts: part.parts, ...(part.next ? { next: part.next } : {}) },
          },
        },
      ],
    };
    // The parts leave a fifth of the budget for their notices; this holds unless a definition's
    // suggestion is enormous, and then the read is refused rather than sent oversized.
    if ((await readTokensAbove(result, options.maxTokens)) !== undefined) throw refuse();
    return result;
  };

  /**
   * The content hash of what a read of `uri` returns now (the version its reads carry), or
   * undefined when it does not exist (any more): what change notifications compare.
   */
  const version = async (uri: string): Promise<string | undefined> => {
    try {
      return renderResourceBody((await readBody(parsePartUri(uri)?.base ?? uri)).body).version;
    } catch {
      return undefined;
    }
  };

  /** The content hash of the whole resource list now. */
  const listVersion = async (): Promise<string> => contentHash(stableStringify(await everything()));

  const readBody = async (uri: string): Promise<ResolvedBody> => {
    try {
      const fixed = byUri.get(uri);
      if (fixed) return { definition: fixed, variables: {}, body: await fixed.read() };
      for (const { definition, template } of compiled) {
        const matched = template.match(uri);
        if (matched) {
          const variables = Object.fromEntries(
            Object.entries(matched).map(([k, v]) => [k, decodeURIComponent(Array.isArray(v) ? v.join("/") : v)]),
          );
          return { definition, variables, body: await definition.read(variables, new URL(uri)) };
        }
      }
    } catch (error) {
      if (error instanceof ToolError && error.code === "NOT_FOUND") {
        throw new ResourceNotFoundError(uri, error.message);
      }
      if (error instanceof ToolError) throw new ProtocolError(RpcErrorCode.InternalError, `${error.code}: ${error.message}`, { uri });
      throw error;
    }
    throw new ResourceNotFoundError(uri, `Resource not found: ${uri}. Call resources/list to see what exists.`);
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

  return { list, listTemplates, read, complete, version, listVersion };
}
