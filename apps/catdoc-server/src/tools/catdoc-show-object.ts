import { eachAtLevel, lazySchema, LeveledResponse, levelIncludes, READ_ONLY } from "@local-mcp/core";
import type { ToolDefinition } from "@local-mcp/core";
import { z } from "zod";
import { requireObject } from "../domain/project-index.js";
import type { Morphism } from "../domain/index.js";
import type { ProjectAccess } from "../project-access.js";
import { withToolErrors } from "./catdoc-tool.js";
import { firstOf, limitInput } from "./support/paging.js";
import { MetadataOutput } from "./support/schemas.js";

const SHOWN = { defaultLimit: 50, maxLimit: 500 };
/** Longest document text returned; the resource catdoc://objects/{id} has all of it. */
const MAX_CONTENT_CHARS = 50_000;

const Arrow = lazySchema(() => z.object({ id: z.string(), source: z.string(), target: z.string(), name: z.string().optional() }));

const input = lazySchema(() =>
  z.object({
    objectId: z.string().min(1),
    categoryId: z.string().min(1).optional().describe("default: where it is defined"),
    limit: limitInput("morphisms each way", SHOWN),
  }),
);

const output = lazySchema(() =>
  z.object({
    id: z.string(),
    categoryId: z.string(),
    outgoingCount: z.number().int(),
    incomingCount: z.number().int(),
    identityId: z.string().nullable(),
    title: z.string().optional(),
    domain: z.string().optional(),
    outgoing: z.array(Arrow()).optional(),
    incoming: z.array(Arrow()).optional(),
    truncated: z.boolean().optional(),
    metadata: MetadataOutput().optional(),
    document: z
      .object({
        origin: z.enum(["inline", "metadata-path", "frontmatter-id", "file-name"]),
        path: z.string().nullable(),
        frontmatter: MetadataOutput(),
      })
      .nullable()
      .optional(),
    content: z.string().nullable().optional(),
    contentTruncated: z.boolean().optional(),
  }),
);

export function catdocShowObjectTool(project: ProjectAccess): ToolDefinition {
  return withToolErrors({
    name: "catdoc_show_object",
    title: "Show an object (document)",
    description:
      "Shows one object (document): its category and its morphisms in and out; full adds metadata and its Markdown (the whole text: resource catdoc://objects/{id}).",
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ_ONLY,
    handler: async ({ objectId, categoryId, limit }, { level }) => {
      const loaded = await project.load();
      const { object, category } = requireObject(loaded.index, objectId, categoryId);
      const identity = category.identities.get(objectId);
      const notSelf = (list: readonly Morphism[] | undefined) => (list ?? []).filter((m) => m.source !== m.target);
      const out = firstOf(notSelf(category.outgoing.get(objectId)), limit ?? SHOWN.defaultLimit);
      const into = firstOf(notSelf(category.incoming.get(objectId)), limit ?? SHOWN.defaultLimit);
      const document = levelIncludes(level, "full") ? await project.document(loaded, objectId) : undefined;
      const content = document?.text;
      return new LeveledResponse((at) => ({
        minimal: {
          id: object.id,
          categoryId: category.category.id,
          outgoingCount: out.total,
          incomingCount: into.total,
          identityId: identity?.id ?? null,
        },
        standard: {
          title: object.title,
          domain: object.domain,
          outgoing: eachAtLevel(at, out.items, (m) => ({
            minimal: { id: m.id, source: m.source, target: m.target },
            standard: { name: m.name },
          })),
          incoming: eachAtLevel(at, into.items, (m) => ({
            minimal: { id: m.id, source: m.source, target: m.target },
            standard: { name: m.name },
          })),
          truncated: out.truncated || into.truncated,
        },
        full: {
          metadata: object.metadata ?? {},
          document:
            document === undefined
              ? undefined
              : document === null
                ? null
                : { origin: document.origin, path: document.path, frontmatter: document.frontmatter },
          content: document === undefined ? undefined : content === undefined ? null : content.slice(0, MAX_CONTENT_CHARS),
          contentTruncated: content === undefined ? undefined : content.length > MAX_CONTENT_CHARS,
        },
      }));
    },
  });
}
