/**
 * minimal is what a model needs to decide its next step: on a library of 20 saved functions, each
 * reading tool's minimal answer costs at most 25 % of its full one (o200k tokens), unless it is
 * 120 tokens or less. get_function's minimal is the version, status and signature (its code, the
 * point of the call, comes from standard, its default level; tools.test.ts pins both).
 */
import { assertMinimalShare } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_CORPUS, corpusCode } from "./fixtures/search-corpus.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { callTool, connectSolo, tempLibrary } from "./helpers/test-library.js";
import type { SoloConnection, TempLibrary } from "./helpers/test-library.js";

let library: TempLibrary;
let solo: SoloConnection;
const saved = SEARCH_CORPUS.slice(0, 20);

beforeAll(async () => {
  library = tempLibrary();
  solo = await connectSolo(library.dbPath);
  for (const fn of saved)
    await commitUnchecked(solo.services, { name: fn.name, code: corpusCode(fn), description: fn.description, tags: fn.tags });
  // A second version of one, for its history.
  const first = saved[0]!;
  await commitUnchecked(solo.services, {
    name: first.name,
    code: corpusCode(first).replace('"""', '"""v2: '),
    description: `${first.description} (v2)`,
    tags: first.tags,
  });
});

afterAll(async () => {
  await solo?.close();
  library?.remove();
});

async function share(tool: string, args: Record<string, unknown>) {
  const [minimal, full] = await Promise.all(
    (["minimal", "full"] as const).map((level) => callTool(solo.client, tool, { ...args, response_level: level })),
  );
  expect(minimal?.isError || full?.isError).toBe(false);
  return assertMinimalShare(`${tool} ${JSON.stringify(args)}`, { minimal: minimal?.body, full: full?.body });
}

describe("minimal ≤ 25 % of full (once minimal is over 120 tokens), on 20 saved functions", () => {
  it("search_functions, list_functions and get_function_history", async () => {
    await share("search_functions", { query: "split a list into batches", limit: 10 });
    await share("list_functions", {});
    await share("get_function_history", { name: saved[0]!.name });
  });

  it("get_function: minimal holds the version, status and signature, not the code", async () => {
    const longest = saved.reduce((a, b) => (corpusCode(b).length > corpusCode(a).length ? b : a));
    const { minimal, full } = await share("get_function", { name: longest.name });
    expect(full).toBeGreaterThan(4 * minimal);
    const answer = await callTool(solo.client, "get_function", { name: longest.name, response_level: "minimal" });
    expect(answer.body).not.toHaveProperty("code");
  });
});
