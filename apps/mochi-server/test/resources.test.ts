import { appendFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { RESOURCE_VERSION_META } from "@local-mcp/core";
import type { InProcessConnection } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MochiRuntime } from "../src/runtime.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { connectMochi, type ConnectedMochi } from "./helpers/tiny-model.js";

// Resources need no model: the catalog alone serves them.
let repo: string;
let served: ConnectedMochi | undefined;
let runtime: MochiRuntime;
let connection: InProcessConnection;

beforeAll(async () => {
  repo = copyFixtureRepo();
  await indexInto(repo);
  served = await connectMochi({}, repo);
  ({ runtime, connection } = served);
});

afterAll(async () => {
  await served?.close();
  rmSync(repo, { recursive: true, force: true });
});

async function read(uri: string) {
  const result = await connection.client.readResource({ uri });
  const content = result.contents[0] as { text: string; mimeType: string; _meta: Record<string, string> };
  return { text: content.text, mimeType: content.mimeType, version: content._meta[RESOURCE_VERSION_META] };
}

describe("mochi resources", () => {
  it("lists every pattern, convention and example, and the stats", async () => {
    const { resources } = await connection.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris[0]).toBe("mochi://stats");
    expect(uris).toContain("mochi://patterns/custom-error-class");
    expect(uris).toContain("mochi://conventions/naming");
    expect(uris).toContain("mochi://examples/src-errors-ts--app-error");
    const catalog = runtime.catalog.current();
    expect(resources).toHaveLength(1 + catalog.patterns.length + catalog.conventions.length + catalog.examples.length);
    const { resourceTemplates } = await connection.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "mochi://patterns/{name}",
      "mochi://conventions/{name}",
      "mochi://examples/{id}",
    ]);
  });

  it("reads patterns, conventions and examples as Markdown with the catalog version", async () => {
    const pattern = await read("mochi://patterns/custom-error-class");
    expect(pattern.mimeType).toBe("text/markdown");
    expect(pattern.text).toContain("# Custom error classes");
    expect(pattern.text).toContain(`<!-- catalog ${runtime.catalog.current().version} -->`);
    expect(pattern.text).toContain("export class AppError extends Error {");
    expect(pattern.text).toContain("- src/errors.ts:13 `NotFoundError`");
    const convention = await read("mochi://conventions/imports");
    expect(convention.text).toContain("- Relative imports carry the .js extension (14 of 14, NodeNext style)");
    const example = await read("mochi://examples/scripts-report-py--load-rows");
    expect(example.text).toContain("```py\ntry:\n    data = json.loads(path.read_text())");
    await expect(connection.client.readResource({ uri: "mochi://patterns/no-such-pattern" })).rejects.toThrow(
      /No pattern 'no-such-pattern'/,
    );
  });

  it("L-idempotent-resource: the same bytes until the next index, then a new version", async () => {
    const uri = "mochi://conventions/naming";
    const first = await read(uri);
    const second = await read(uri);
    expect(second.text).toBe(first.text);
    expect(second.version).toBe(first.version);
    // Re-indexing unchanged code changes nothing.
    await indexInto(repo);
    expect((await read(uri)).version).toBe(first.version);
    // A new function changes the catalog: a new version, no restart needed.
    appendFileSync(join(repo, "src", "registry.ts"), "\nexport function countHandlers(): number {\n  return 0;\n}\n");
    const reindexed = await indexInto(repo);
    const third = await read(uri);
    expect(third.version).not.toBe(first.version);
    expect(third.text).toContain(`<!-- catalog ${reindexed.version} -->`);
    expect(third.text).toContain("TypeScript functions are camelCase: 11 of 11");
    expect((await read(uri)).text).toBe(third.text);
  });

  it("completes pattern and convention names and example ids", async () => {
    const complete = async (uri: string, name: string, value: string) =>
      (await connection.client.complete({ ref: { type: "ref/resource", uri }, argument: { name, value } })).completion.values;
    // Names that start with the value first, then names that contain it.
    expect(await complete("mochi://patterns/{name}", "name", "re")).toEqual(["registry", "result-type", "disposable-resource"]);
    expect(await complete("mochi://patterns/{name}", "name", "error")).toEqual(["error-handling", "custom-error-class"]);
    expect(await complete("mochi://conventions/{name}", "name", "na")).toEqual(["naming"]);
    expect(await complete("mochi://examples/{id}", "id", "src-errors")).toEqual([
      "src-errors-ts--app-error",
      "src-errors-ts--not-found-error",
      "src-errors-ts--validation-error",
    ]);
    expect(await complete("mochi://examples/{id}", "id", "zzz")).toEqual([]);
  });

  it("stats: catalog counts, model readiness, laws, and latency after calls", async () => {
    await connection.client.callTool({ name: "suggest_pattern", arguments: { goal: "wrap errors" } });
    const stats = JSON.parse((await read("mochi://stats")).text) as {
      catalog: { version: string; files: number; patterns: number };
      model: { readiness: { state: string }; base: unknown };
      inference: Record<string, { count: number; p50_ms: number; p95_ms: number }>;
      laws: { deadline_ms: number; memory_bound_bytes: number };
    };
    expect(stats.catalog).toMatchObject({ version: runtime.catalog.current().version, files: 12 });
    expect(stats.model).toMatchObject({ readiness: { state: "unconfigured" }, base: null });
    expect(stats.inference.suggest_pattern?.count).toBeGreaterThanOrEqual(1);
    expect(stats.inference.suggest_pattern?.p95_ms).toBeGreaterThanOrEqual(stats.inference.suggest_pattern?.p50_ms ?? 0);
    expect(stats.laws).toEqual({ deadline_ms: 5000, memory_bound_bytes: 32 * 1024 ** 3, require_adapter: false });
  });
});
