import { createHash } from "node:crypto";

/** What a resource read returns; JSON is serialised with sorted keys so equal data gives equal bytes. */
export type ResourceBody = { text: string } | { json: unknown } | { blob: Uint8Array };

export interface ResourceListing {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/**
 * What a read gives when the resource is above the response budget (Claude Code's 25,000 tokens;
 * see packages/core/src/server/resource-reads.ts). Every read of the same source gives the same
 * bytes either way.
 */
export interface ResourceOversize {
  /**
   * - `"parts"`: the text is split at line boundaries into parts that each fit; reading the URI
   *   gives part 1, which starts with a notice naming the size and the next part, `<uri>?part=2`.
   *   The default for text (Markdown, plain text).
   * - `"refuse"`: the JSON-RPC error -32603 `RESOURCE_EXHAUSTED: …` with the size and the
   *   suggestion. The default for JSON (a part of a JSON document is not JSON) and the only
   *   choice for binary content.
   */
  mode?: "parts" | "refuse";
  /**
   * What to read or call instead (a smaller resource, a tool with limits), said in the error and
   * in every part's notice. A function gets the URI read and, for a template, its variables.
   */
  suggestion?: string | ((uri: string, variables: Readonly<Record<string, string>>) => string);
}

interface ResourceCommon {
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  /** What a read above the response budget gives; see ResourceOversize. */
  oversize?: ResourceOversize;
}

/** A resource at one fixed URI. */
export interface ResourceDefinition extends ResourceCommon {
  uri: string;
  read: () => Promise<ResourceBody>;
}

/** A family of resources (`mochi://patterns/{name}`) with listing and argument completion. */
export interface ResourceTemplateDefinition extends ResourceCommon {
  uriTemplate: string;
  /** Every concrete resource, for `resources/list`. */
  list?: () => Promise<ResourceListing[]>;
  /** Completion per template variable: candidates that start with `value`. */
  complete?: Record<string, (value: string) => Promise<string[]> | string[]>;
  /** Reads one resource; throw a `NOT_FOUND` ToolError for an unknown one. */
  read: (variables: Record<string, string>, uri: URL) => Promise<ResourceBody>;
}

export function defineResource(definition: ResourceDefinition): ResourceDefinition {
  return definition;
}

export function defineResourceTemplate(definition: ResourceTemplateDefinition): ResourceTemplateDefinition {
  return definition;
}

/** JSON with object keys sorted at every depth, so equal values always give equal bytes. */
export function stableStringify(value: unknown, indent = 2): string {
  return JSON.stringify(sortKeys(value), null, indent);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** A content hash: the version of a resource (L-idempotent-resource). */
export function contentHash(bytes: string | Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}`;
}

/** Renders a body to the bytes sent, with its version. */
export function renderResourceBody(body: ResourceBody): { text: string; version: string } | { blob: string; version: string } {
  if ("blob" in body) return { blob: Buffer.from(body.blob).toString("base64"), version: contentHash(body.blob) };
  const text = "json" in body ? stableStringify(body.json) : body.text;
  return { text, version: contentHash(text) };
}

/** The `_meta` key under which every resource content carries its version. */
export const RESOURCE_VERSION_META = "local-mcp/version";
