/**
 * Resources within the response budget, through a real MCP client: resources/list and
 * resources/templates/list come a page at a time (cursor pagination, every page well under the
 * limit), and a read above the limit is split into parts (text) or refused with a suggestion
 * (JSON, binary), with the same bytes on every read until the source changes.
 */
import type { ListResourcesResult, ReadResourceResult } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_PAGE_ITEMS,
  RESOURCE_NOT_FOUND,
  RESOURCE_PART_META,
  RESOURCE_VERSION_META,
  ToolError,
  contentHash,
  defineResource,
  defineResourceTemplate,
  estimateJsonTokens,
  parsePartUri,
  partUri,
  seededRandom,
  silentLogger,
  type ResourceListing,
  type ServerDefinition,
} from "../src/index.js";
import { splitText } from "../src/server/resource-reads.js";
import { connectInProcess, jsonTokens, type InProcessConnection } from "../src/testing/index.js";

const LIMIT = 25_000;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** A mutable source: entries listed by a template, and the bodies of a few fixed resources. */
interface Source {
  entries: ResourceListing[];
  markdown: string;
  json: unknown;
  blob: Uint8Array;
}

function entries(count: number, describeEntry: (i: number) => string = (i) => `entry number ${i}`): ResourceListing[] {
  return Array.from({ length: count }, (_, i) => ({
    uri: `test://items/${i}`,
    name: `item-${i}`,
    title: `Item ${i}`,
    description: describeEntry(i),
  }));
}

/** Markdown of about `chars` characters in lines of varying length, with quotes and tabs (JSON escapes them). */
function bigMarkdown(chars: number): string {
  const lines: string[] = ["# A long document", ""];
  let size = 0;
  for (let i = 0; size < chars; i += 1) {
    const line =
      i % 40 === 0 ? `## Section ${i / 40}` : `Line ${i}: "quoted"\tand \\escaped\\ text ${"lorem ipsum ".repeat(i % 17)}— ünïcödé 🙂`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

function definition(source: Source, extra: Partial<ServerDefinition> = {}): ServerDefinition {
  return {
    name: "resources-budget",
    version: "0.0.0",
    logger: silentLogger,
    tools: [],
    resources: [
      defineResource({ uri: "test://doc", name: "doc", mimeType: "text/markdown", read: async () => ({ text: source.markdown }) }),
      defineResource({
        uri: "test://graph",
        name: "graph",
        mimeType: "application/json",
        oversize: { suggestion: "Use the get_graph tool with limit and offset." },
        read: async () => ({ json: source.json }),
      }),
      defineResource({
        uri: "test://graph-in-parts",
        name: "graph-in-parts",
        mimeType: "application/json",
        oversize: { mode: "parts" },
        read: async () => ({ json: source.json }),
      }),
      defineResource({
        uri: "test://refused-text",
        name: "refused-text",
        mimeType: "text/plain",
        oversize: { mode: "refuse" },
        read: async () => ({ text: source.markdown }),
      }),
      defineResource({
        uri: "test://blob",
        name: "blob",
        mimeType: "application/octet-stream",
        oversize: { mode: "parts" },
        read: async () => ({ blob: source.blob }),
      }),
      defineResource({ uri: "test://small", name: "small", mimeType: "text/plain", read: async () => ({ text: "small\n" }) }),
    ],
    resourceTemplates: [
      defineResourceTemplate({
        uriTemplate: "test://items/{id}",
        name: "items",
        mimeType: "application/json",
        oversize: { suggestion: (uri, { id }) => `Call show_item with id '${id}' (not ${uri}).` },
        list: async () => source.entries,
        read: async ({ id = "" }) => {
          if (!/^\d+$/.test(id)) throw new ToolError("NOT_FOUND", `No item ${id}`);
          return { json: { id, payload: Number(id) === 7 ? "x".repeat(200_000) : "small" } };
        },
      }),
    ],
    ...extra,
  };
}

type PageClient = InProcessConnection["client"];
/** One page, as the server sent it (the client's listResources() follows every cursor itself). */
const listPage = (client: PageClient, params: { cursor?: string } = {}) => client.request({ method: "resources/list", params });
const templatesPage = (client: PageClient, params: { cursor?: string } = {}) =>
  client.request({ method: "resources/templates/list", params });

async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return { code, message, data };
  }
  throw new Error("expected a JSON-RPC error");
}

const tokensOf = (value: unknown) => estimateJsonTokens(JSON.stringify(value));

describe("resources within the response budget", () => {
  let conn: InProcessConnection | undefined;
  const others: InProcessConnection[] = [];
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
    for (const other of others.splice(0)) await other.close();
  });

  const source = (): Source => ({
    entries: entries(1_234),
    markdown: bigMarkdown(300_000),
    json: { nodes: entries(3_000) },
    blob: new Uint8Array(200_000).fill(7),
  });
  const connect = async (s: Source, extra: Partial<ServerDefinition> = {}) => {
    conn = await connectInProcess(definition(s, extra));
    return conn.client;
  };

  async function allPages(client: InProcessConnection["client"]): Promise<ListResourcesResult[]> {
    const pages: ListResourcesResult[] = [];
    let cursor: string | undefined;
    do {
      const page = await listPage(client, cursor === undefined ? {} : { cursor });
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor !== undefined && pages.length < 1_000);
    return pages;
  }

  describe("resources/list pages", () => {
    it("cover every resource exactly once, in order, each page at most 200 entries and 10,000 tokens", async () => {
      const s = source();
      const client = await connect(s);
      const pages = await allPages(client);
      const uris = pages.flatMap((p) => p.resources.map((r) => r.uri));
      const fixed = ["test://doc", "test://graph", "test://graph-in-parts", "test://refused-text", "test://blob", "test://small"];
      expect(uris).toEqual([...fixed, ...s.entries.map((e) => e.uri)]);
      expect(new Set(uris).size).toBe(uris.length);
      expect(pages.length).toBeGreaterThan(1);
      for (const page of pages) {
        expect(page.resources.length).toBeLessThanOrEqual(DEFAULT_PAGE_ITEMS);
        expect(tokensOf(page)).toBeLessThanOrEqual(LIMIT * 0.4);
      }
      expect(pages.at(-1)?.nextCursor).toBeUndefined();
      // every page but the last is full by count here (small entries)
      expect(pages.slice(0, -1).every((p) => p.resources.length === DEFAULT_PAGE_ITEMS)).toBe(true);
      // every page names the version of the whole list
      const versions = new Set(pages.map((p) => p._meta?.[RESOURCE_VERSION_META]));
      expect(versions.size).toBe(1);
      expect([...versions][0]).toMatch(/^sha256:[0-9a-f]{16}$/);
    });

    it("page by tokens when entries are large, and cut an entry bigger than a page", async () => {
      const s = source();
      s.entries = entries(300, (i) => (i === 5 ? "d".repeat(100_000) : `${"a long description ".repeat(150)}${i}`));
      const client = await connect(s);
      const pages = await allPages(client);
      const listed = pages.flatMap((p) => p.resources);
      expect(listed.length).toBe(306);
      for (const page of pages) expect(tokensOf(page)).toBeLessThanOrEqual(LIMIT * 0.4);
      // ~2,900 characters an entry: about 13 entries a page, far below the count limit
      expect(Math.max(...pages.map((p) => p.resources.length))).toBeLessThan(20);
      const cut = listed.find((r) => r.uri === "test://items/5");
      expect(cut?.description).toBe(`${"d".repeat(2_000)}…`);
    });

    it("follow maxResponseTokens and resourcePageSize", async () => {
      const client = await connect(source(), { maxResponseTokens: 2_000, resourcePageSize: 7 });
      const pages = await allPages(client);
      expect(pages.flatMap((p) => p.resources).length).toBe(1_240);
      for (const page of pages) {
        expect(page.resources.length).toBeLessThanOrEqual(7);
        expect(tokensOf(page)).toBeLessThanOrEqual(800);
      }
    });

    it("are stable: the same list gives the same pages and cursors, also from another server process's view", async () => {
      const s = source();
      const client = await connect(s);
      const first = await allPages(client);
      const again = await allPages(client);
      expect(JSON.stringify(again)).toBe(JSON.stringify(first));
      const other = await connectInProcess(definition(s));
      others.push(other);
      const cursor = first[2]?.nextCursor;
      expect(cursor).toBeDefined();
      // a cursor from one server instance works on another with the same list
      expect(JSON.stringify(await listPage(other.client, { cursor }))).toBe(JSON.stringify(first[3]));
    });

    it("a cursor is opaque: base64url, no URI or offset in sight", async () => {
      const client = await connect(source());
      const { nextCursor } = await listPage(client);
      expect(nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(nextCursor).not.toContain("test://");
    });

    it("an invalid cursor is -32602 Invalid params", async () => {
      const s = source();
      const client = await connect(s);
      const first = await listPage(client);
      const valid = first.nextCursor ?? "";
      const decoded = Buffer.from(valid, "base64url").toString("utf8");
      const [hash] = decoded.split(".");
      const forged = [
        "garbage",
        "",
        "!!!",
        `${valid}x`,
        Buffer.from(`${hash}.1`).toString("base64url"), // not a page start
        Buffer.from(`${hash}.999999`).toString("base64url"),
        Buffer.from(`${hash}.0`).toString("base64url"), // the first page has no cursor
        Buffer.from(`0000000000000000.${decoded.split(".")[1]}`).toString("base64url"),
        Buffer.from(JSON.stringify({ offset: 200 })).toString("base64url"),
      ];
      for (const cursor of forged) {
        const error = await rpcError(listPage(client, { cursor }));
        expect(error.code, cursor).toBe(INVALID_PARAMS);
        expect(error.message, cursor).toMatch(/Invalid cursor for resources\/list/);
      }
    });

    it("a cursor from before the list changed is -32602, naming the change; listing again works", async () => {
      const s = source();
      const client = await connect(s);
      const { nextCursor, _meta } = await listPage(client);
      s.entries = entries(1_235);
      const error = await rpcError(listPage(client, { cursor: nextCursor }));
      expect(error.code).toBe(INVALID_PARAMS);
      expect(error.message).toMatch(/changed since this cursor was given/);
      const fresh = await listPage(client);
      expect(fresh._meta?.[RESOURCE_VERSION_META]).not.toBe(_meta?.[RESOURCE_VERSION_META]);
      expect((await allPages(client)).flatMap((p) => p.resources).length).toBe(1_241);
    });

    it("resources/templates/list pages the same way", async () => {
      const templates = Array.from({ length: 5 }, (_, i) =>
        defineResourceTemplate({
          uriTemplate: `test://t${i}/{id}`,
          name: `t${i}`,
          mimeType: "text/plain",
          read: async () => ({ text: "" }),
        }),
      );
      const client = await connect(source(), { resourceTemplates: templates, resourcePageSize: 2 });
      const names: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await templatesPage(client, cursor === undefined ? {} : { cursor });
        names.push(...page.resourceTemplates.map((t) => t.name));
        expect(page.resourceTemplates.length).toBeLessThanOrEqual(2);
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined);
      expect(names).toEqual(["t0", "t1", "t2", "t3", "t4"]);
      expect(pages).toBe(3);
      const error = await rpcError(templatesPage(client, { cursor: "nope" }));
      expect(error.code).toBe(INVALID_PARAMS);
    });
  });

  describe("reads above the budget", () => {
    async function allParts(client: InProcessConnection["client"], uri: string): Promise<ReadResourceResult[]> {
      const parts: ReadResourceResult[] = [];
      let next: string | undefined = uri;
      while (next !== undefined && parts.length < 100) {
        const result = await client.readResource({ uri: next });
        parts.push(result);
        next = (result.contents[0]?._meta?.[RESOURCE_PART_META] as { next?: string } | undefined)?.next;
      }
      return parts;
    }
    const textOf = (result: ReadResourceResult) => (result.contents[0] as { text: string }).text;
    /** A part's text without its notices. */
    const bodyOf = (text: string) => text.replace(/^\[local-mcp: [^\n]*\]\n\n/, "").replace(/\n\n\[local-mcp: continued in [^\n]*\]$/, "");

    it("text: split at line boundaries into parts that each fit, with a notice naming the size and the next part", async () => {
      const s = source();
      const client = await connect(s);
      const parts = await allParts(client, "test://doc");
      expect(parts.length).toBeGreaterThan(3);
      for (const [i, part] of parts.entries()) {
        expect(tokensOf(part)).toBeLessThanOrEqual(LIMIT);
        const content = part.contents[0];
        expect(content?.uri).toBe(i === 0 ? "test://doc" : `test://doc?part=${i + 1}`);
        expect(content?.mimeType).toBe("text/markdown");
        expect(content?._meta?.[RESOURCE_PART_META]).toEqual({
          part: i + 1,
          parts: parts.length,
          ...(i + 1 < parts.length ? { next: `test://doc?part=${i + 2}` } : {}),
        });
        // every part carries the version of the whole text
        expect(content?._meta?.[RESOURCE_VERSION_META]).toBe(contentHash(s.markdown));
        const text = textOf(part);
        expect(text).toMatch(
          new RegExp(
            `^\\[local-mcp: test://doc is ~[\\d,]+ tokens, above the 25,000-token limit of MCP clients such as Claude Code, so it comes in ${parts.length} parts\\. This is part ${i + 1} of ${parts.length}: lines [\\d,]+–[\\d,]+ of [\\d,]+\\.`,
          ),
        );
        if (i + 1 < parts.length) {
          expect(text).toContain(`Next: read test://doc?part=${i + 2}.`);
          expect(text.endsWith(`\n\n[local-mcp: continued in test://doc?part=${i + 2}]`)).toBe(true);
        } else {
          expect(text).toContain("This is the last part.");
        }
      }
      // the parts joined are the text itself, cut between lines
      const bodies = parts.map((p) => bodyOf(textOf(p)));
      expect(bodies.join("")).toBe(s.markdown);
      for (const body of bodies.slice(0, -1)) expect(body.endsWith("\n")).toBe(true);
    });

    it("text dense in tokens (ids, hashes): every part within 25,000 real o200k tokens, not only by chars/4", async () => {
      // ~3 characters a token: parts cut by characters alone (80,000 a part) held ~27,000 tokens.
      const random = seededRandom(7);
      const hex = () =>
        Math.floor(random() * 0xffffff)
          .toString(16)
          .padStart(6, "0");
      const lines = Array.from({ length: 5_000 }, (_, i) => `- ${i}: ${Array.from({ length: 8 }, hex).join(" ")}`);
      const s = { ...source(), markdown: lines.join("\n") };
      const client = await connect(s);
      const parts = await allParts(client, "test://doc");
      expect(parts.length).toBeGreaterThan(2);
      for (const part of parts) expect(await jsonTokens(part)).toBeLessThanOrEqual(LIMIT);
      expect(parts.map((p) => bodyOf(textOf(p))).join("")).toBe(s.markdown);
    });

    it("text: the same bytes on every read until the source changes", async () => {
      const s = source();
      const client = await connect(s);
      const a = await client.readResource({ uri: "test://doc?part=2" });
      const b = await client.readResource({ uri: "test://doc?part=2" });
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      s.markdown = `${s.markdown}\nOne more line.`;
      const c = await client.readResource({ uri: "test://doc?part=2" });
      expect(c.contents[0]?._meta?.[RESOURCE_VERSION_META]).not.toBe(a.contents[0]?._meta?.[RESOURCE_VERSION_META]);
    });

    it("text: a part past the last, or a part of a resource that fits, is -32002", async () => {
      const client = await connect(source());
      const parts = (await client.readResource({ uri: "test://doc" })).contents[0]?._meta?.[RESOURCE_PART_META] as { parts: number };
      const past = await rpcError(client.readResource({ uri: `test://doc?part=${parts.parts + 1}` }));
      expect(past.code).toBe(RESOURCE_NOT_FOUND);
      expect(past.message).toContain(`comes in ${parts.parts} parts`);
      const small = await rpcError(client.readResource({ uri: "test://small?part=2" }));
      expect(small.code).toBe(RESOURCE_NOT_FOUND);
      expect(small.message).toMatch(/fits in one read and has no parts/);
      // a resource that fits is read whole, with no part metadata
      const whole = await client.readResource({ uri: "test://small" });
      expect(whole.contents[0]).toMatchObject({ uri: "test://small", text: "small\n" });
      expect(whole.contents[0]?._meta?.[RESOURCE_PART_META]).toBeUndefined();
    });

    it("text: one line longer than a part is cut between code points, never inside a surrogate pair or an escape", async () => {
      const s = source();
      s.markdown = `${'🙂"\u0001'.repeat(60_000)}\nlast line`;
      const client = await connect(s);
      const parts = await allParts(client, "test://doc");
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) expect(tokensOf(part)).toBeLessThanOrEqual(LIMIT);
      expect(parts.map((p) => bodyOf(textOf(p))).join("")).toBe(s.markdown);
      expect(textOf(parts[0] as ReadResourceResult)).toMatch(/: line 1 of 2\./);
    });

    it("JSON: refused with -32603 RESOURCE_EXHAUSTED, the size and the definition's suggestion", async () => {
      const client = await connect(source());
      const graph = await rpcError(client.readResource({ uri: "test://graph" }));
      expect(graph.code).toBe(INTERNAL_ERROR);
      expect(graph.message).toMatch(
        /RESOURCE_EXHAUSTED: test:\/\/graph is ~[\d]+ tokens \(o200k, of its JSON\), above the 25000-token limit/,
      );
      expect(graph.message).toContain("Use the get_graph tool with limit and offset.");
      expect(graph.data).toMatchObject({
        uri: "test://graph",
        code: "RESOURCE_EXHAUSTED",
        maxTokens: LIMIT,
        suggestion: "Use the get_graph tool with limit and offset.",
      });
      expect(estimateJsonTokens(graph.message)).toBeLessThan(200);
      // a template's suggestion is a function of the URI and its variables
      const item = await rpcError(client.readResource({ uri: "test://items/7" }));
      expect(item.message).toContain("Call show_item with id '7' (not test://items/7).");
      // the same item URI with a part asked for: still refused
      expect((await rpcError(client.readResource({ uri: "test://items/7?part=2" }))).code).toBe(INTERNAL_ERROR);
      // a small item of the same template is read as before
      const small = await client.readResource({ uri: "test://items/3" });
      expect(JSON.parse(textOf(small))).toEqual({ id: "3", payload: "small" });
    });

    it("JSON with oversize.mode 'parts': split like text, as text/plain", async () => {
      const s = source();
      const client = await connect(s);
      const parts = await allParts(client, "test://graph-in-parts");
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) {
        expect(tokensOf(part)).toBeLessThanOrEqual(LIMIT);
        expect(part.contents[0]?.mimeType).toBe("text/plain");
      }
      expect(JSON.parse(parts.map((p) => bodyOf(textOf(p))).join(""))).toEqual(s.json);
    });

    it("text with oversize.mode 'refuse', and binary content: refused", async () => {
      const client = await connect(source());
      const text = await rpcError(client.readResource({ uri: "test://refused-text" }));
      expect(text.code).toBe(INTERNAL_ERROR);
      expect(text.message).toMatch(/^RESOURCE_EXHAUSTED: test:\/\/refused-text is ~\d+ tokens/);
      expect(text.message).toContain("use the server's tools, which take limits");
      const blob = await rpcError(client.readResource({ uri: "test://blob" }));
      expect(blob.code).toBe(INTERNAL_ERROR);
      expect(blob.message).toMatch(/RESOURCE_EXHAUSTED: test:\/\/blob/);
    });

    it("follows maxResponseTokens", async () => {
      const s = source();
      s.markdown = bigMarkdown(30_000);
      const client = await connect(s, { maxResponseTokens: 5_000 });
      const parts = await allParts(client, "test://doc");
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) expect(tokensOf(part)).toBeLessThanOrEqual(5_000);
      expect(parts.map((p) => bodyOf(textOf(p))).join("")).toBe(s.markdown);
    });
  });

  describe("helpers", () => {
    it("part URIs", () => {
      expect(partUri("a://b", 2)).toBe("a://b?part=2");
      expect(partUri("a://b?x=1", 3)).toBe("a://b?x=1&part=3");
      expect(parsePartUri("a://b?part=2")).toEqual({ base: "a://b", part: 2 });
      expect(parsePartUri("a://b?x=1&part=12")).toEqual({ base: "a://b?x=1", part: 12 });
      for (const uri of ["a://b", "a://b?part=0", "a://b?part=01", "a://b?part=x", "a://b?part=2&x=1"])
        expect(parsePartUri(uri), uri).toBeUndefined();
    });

    it("splitText keeps every character, and each part within its size as JSON text", () => {
      const text = ["short", "x".repeat(50), '\t"q"\\', "🙂".repeat(30), "", "end"].join("\n");
      for (const max of [6, 7, 10, 25, 64, 1_000]) {
        const parts = splitText(text, max);
        expect(parts.map((p) => p.text).join("")).toBe(text);
        for (const part of parts) expect(JSON.stringify(part.text).length - 2).toBeLessThanOrEqual(max);
      }
      expect(splitText(text, 1_000)).toEqual([{ text, firstLine: 1, lastLine: 6 }]);
    });
  });
});
