import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RESOURCE_VERSION_META, ToolErrorBodySchema } from "../src/index.js";
import { assertLevelsNested, connectInProcess, type InProcessConnection } from "../src/testing/index.js";
import { lawServer } from "./fixtures/law-server.js";

function errorOf(result: CallToolResult) {
  expect(result.isError).toBe(true);
  const body = ToolErrorBodySchema.parse(result.structuredContent);
  // the text content carries the same body
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(body);
  return body.error;
}

describe("the L-laws, through a real MCP client", () => {
  let dir: string;
  let sourceFile: string;
  let fixture: ReturnType<typeof lawServer>;
  let conn: InProcessConnection;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "core-laws-"));
    sourceFile = join(dir, "source.json");
    await writeFile(sourceFile, JSON.stringify({ b: 2, a: 1 }));
    fixture = lawServer({ resourceFile: sourceFile });
    conn = await connectInProcess(fixture.definition);
  });
  afterEach(async () => {
    await conn.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("L-response-time: a tool past its deadline returns TIMEOUT within deadline + 100 ms and its work saw the abort", async () => {
    const started = Date.now();
    const result = (await conn.client.callTool({ name: "slow", arguments: { ms: 5_000 } })) as CallToolResult;
    const elapsed = Date.now() - started;
    const error = errorOf(result);
    expect(error.code).toBe("TIMEOUT");
    expect(error.status).toBe(504);
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(200 + 100);
    const work = fixture.workLog[0];
    expect(work?.abortedAt).toBeDefined();
    expect(work?.finished).toBe(false);
    expect((work?.abortReason as { code?: string }).code).toBe("TIMEOUT");
  });

  it("L-response-time: the deadline answers even when the work ignores its signal", async () => {
    const started = Date.now();
    const result = (await conn.client.callTool({ name: "stubborn", arguments: { ms: 1_000 } })) as CallToolResult;
    expect(errorOf(result).code).toBe("TIMEOUT");
    expect(Date.now() - started).toBeLessThan(100 + 100);
  });

  it("L-response-time: work within its deadline succeeds", async () => {
    const result = (await conn.client.callTool({ name: "slow", arguments: { ms: 10 } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ done: true });
  });

  it("L-response-time: progress heartbeats reach a client that asked, and only that client", async () => {
    const heartbeats: { progress: number; message?: string }[] = [];
    const result = await conn.client.callTool(
      { name: "slow", arguments: { ms: 150 } },
      {
        onprogress: (p) => heartbeats.push(p),
      },
    );
    expect(result.isError).toBeFalsy();
    expect(heartbeats.length).toBeGreaterThanOrEqual(2);
    expect(heartbeats[0]?.message).toMatch(/working/);
    const values = heartbeats.map((h) => h.progress);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(new Set(values).size).toBe(values.length);
  });

  it("L-response-time: a tool's own progress reports reach the client with their totals", async () => {
    const reports: { progress: number; total?: number; message?: string }[] = [];
    await conn.client.callTool({ name: "reporter", arguments: { steps: 4 } }, { onprogress: (p) => reports.push(p) });
    expect(reports).toEqual([1, 2, 3, 4].map((i) => ({ progress: i, total: 4, message: `step ${i}` })));
  });

  it("L-adapter-required: a not-ready tool returns NOT_READY with the reason, then works once ready", async () => {
    let error = errorOf((await conn.client.callTool({ name: "ask_model", arguments: { question: "hi" } })) as CallToolResult);
    expect(error.code).toBe("NOT_READY");
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/model is not ready: model is not configured/);

    // still loading at the deadline: NOT_READY with the progress, not a TIMEOUT
    fixture.model.markLoading("loading weights", 0.4);
    const waited = Date.now();
    error = errorOf((await conn.client.callTool({ name: "ask_model", arguments: { question: "hi" } })) as CallToolResult);
    expect(error.message).toMatch(/loading weights \(40%\)/);
    expect(error.recoverable).toBe(true);
    expect(Date.now() - waited).toBeGreaterThanOrEqual(200);
    expect(Date.now() - waited).toBeLessThan(300 + 100);

    // a load that finishes within the call's deadline: the call waits and then runs
    setTimeout(() => fixture.model.markReady(), 60);
    const afterLoad = (await conn.client.callTool({ name: "ask_model", arguments: { question: "later" } })) as CallToolResult;
    expect(afterLoad.structuredContent).toEqual({ answer: "echo: later" });
    fixture.model.markLoading("reloading", 0);

    fixture.model.markFailed("adapter.gguf: alpha is not FLOAT32");
    error = errorOf((await conn.client.callTool({ name: "ask_model", arguments: { question: "hi" } })) as CallToolResult);
    expect(error.message).toMatch(/alpha is not FLOAT32/);
    expect(error.recoverable).toBe(false);

    fixture.model.markReady();
    const ok = (await conn.client.callTool({ name: "ask_model", arguments: { question: "hi" } })) as CallToolResult;
    expect(ok.structuredContent).toEqual({ answer: "echo: hi" });
  });

  it("L-idempotent-resource: a resource read twice returns identical bytes; a new version only after its source changes", async () => {
    const first = await conn.client.readResource({ uri: "law://source" });
    const second = await conn.client.readResource({ uri: "law://source" });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    const v1 = first.contents[0]?._meta?.[RESOURCE_VERSION_META];
    expect(v1).toMatch(/^sha256:[0-9a-f]{16}$/);
    // equal data written with other key order is the same resource
    await writeFile(sourceFile, JSON.stringify({ a: 1, b: 2 }));
    const reordered = await conn.client.readResource({ uri: "law://source" });
    expect(reordered.contents[0]?._meta?.[RESOURCE_VERSION_META]).toBe(v1);
    await writeFile(sourceFile, JSON.stringify({ a: 1, b: 3 }));
    const changed = await conn.client.readResource({ uri: "law://source" });
    expect(changed.contents[0]?._meta?.[RESOURCE_VERSION_META]).not.toBe(v1);
    expect((changed.contents[0] as { text: string }).text).toContain('"b": 3');
  });

  it("L-mcp-compliance: a bad argument returns isError with INVALID_INPUT naming the field", async () => {
    const wrongType = errorOf((await conn.client.callTool({ name: "list_items", arguments: { limit: "ten" } })) as CallToolResult);
    expect(wrongType.code).toBe("INVALID_INPUT");
    expect(wrongType.status).toBe(400);
    expect(wrongType.message).toContain("limit");
    expect(wrongType.details?.fields).toEqual([expect.objectContaining({ field: "limit" })]);

    const extra = errorOf((await conn.client.callTool({ name: "list_items", arguments: { limitt: 3 } })) as CallToolResult);
    expect(extra.message).toContain("limitt");

    const missing = errorOf((await conn.client.callTool({ name: "slow", arguments: {} })) as CallToolResult);
    expect(missing.message).toContain("ms");

    const level = errorOf((await conn.client.callTool({ name: "list_items", arguments: { response_level: "huge" } })) as CallToolResult);
    expect(level.message).toContain("response_level");
  });

  it("L-mcp-compliance: an output that breaks its schema is an INTERNAL error, not a bad result", async () => {
    const error = errorOf((await conn.client.callTool({ name: "bad_output", arguments: {} })) as CallToolResult);
    expect(error.code).toBe("INTERNAL");
  });

  it("renders ToolError exactly as specified and hides internals of plain bugs", async () => {
    const coded = (await conn.client.callTool({ name: "fails", arguments: { kind: "coded" } })) as CallToolResult;
    expect(coded.structuredContent).toEqual({
      error: { code: "NOT_FOUND", status: 404, message: "Item 'x' not found", recoverable: true, suggestion: "List the items first." },
    });
    const bug = errorOf((await conn.client.callTool({ name: "fails", arguments: { kind: "bug" } })) as CallToolResult);
    expect(bug.code).toBe("INTERNAL");
    expect(bug.status).toBe(500);
    expect(JSON.stringify(bug)).not.toMatch(/\bat .*\(|\.ts:\d+/);
  });

  it("response levels: minimal ⊆ standard ⊆ full, default minimal, argument overrides", async () => {
    const call = async (level?: string) =>
      (
        (await conn.client.callTool({
          name: "list_items",
          arguments: level ? { limit: 2, response_level: level } : { limit: 2 },
        })) as CallToolResult
      ).structuredContent;
    const [minimal, standard, full, byDefault] = await Promise.all([call("minimal"), call("standard"), call("full"), call()]);
    assertLevelsNested({ minimal, standard, full });
    expect(byDefault).toEqual(minimal);
    expect(minimal).toEqual({ count: 2, items: [{ id: "item-0" }, { id: "item-1" }] });
    expect(standard).toEqual({
      count: 2,
      items: [
        { id: "item-0", name: "Item 0" },
        { id: "item-1", name: "Item 1" },
      ],
    });
    expect(full).toMatchObject({ generated_by: "law-server", items: [{ tags: ["t0"] }, { tags: ["t1"] }] });
    expect(JSON.stringify(minimal).length).toBeLessThan(JSON.stringify(full).length);
  });

  it("lists every tool with explicit annotations, an input schema with response_level and an output schema", async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name)).toContain("list_items");
    for (const tool of tools) {
      expect(tool.annotations).toEqual(
        expect.objectContaining({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
      );
      expect(tool.inputSchema.properties).toHaveProperty("response_level");
      expect(tool.outputSchema?.type).toBe("object");
    }
  });

  it("resource templates: listing, reading, completion and a not-found error", async () => {
    const { resources } = await conn.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["law://source", "law://items/alpha", "law://items/beta"]);
    const { resourceTemplates } = await conn.client.listResourceTemplates();
    expect(resourceTemplates[0]?.uriTemplate).toBe("law://items/{id}");
    const item = await conn.client.readResource({ uri: "law://items/beta" });
    expect((item.contents[0] as { text: string }).text).toBe("item beta");
    const completion = await conn.client.complete({
      ref: { type: "ref/resource", uri: "law://items/{id}" },
      argument: { name: "id", value: "a" },
    });
    expect(completion.completion.values).toEqual(["alpha"]);
    await expect(conn.client.readResource({ uri: "law://items/zeta" })).rejects.toThrow(/not found/);
  });
});

describe("L-memory-bound through a tool", () => {
  it("refuses above the bound with RESOURCE_EXHAUSTED, and runs below it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "core-mem-"));
    const file = join(dir, "s.json");
    await writeFile(file, "{}");
    const over = await connectInProcess(lawServer({ resourceFile: file, memory: { rss: 2_000, bound: 1_000 } }).definition);
    const refused = (await over.client.callTool({ name: "big_job", arguments: {} })) as CallToolResult;
    expect(errorOf(refused).code).toBe("RESOURCE_EXHAUSTED");
    expect(errorOf(refused).status).toBe(507);
    await over.close();
    const under = await connectInProcess(lawServer({ resourceFile: file, memory: { rss: 500, bound: 1_000 } }).definition);
    expect(((await under.client.callTool({ name: "big_job", arguments: {} })) as CallToolResult).structuredContent).toEqual({ ok: true });
    await under.close();
    await rm(dir, { recursive: true, force: true });
  });
});
