import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compilePatterns, RegexRunner } from "../src/domain/regex/bounded-regex.js";
import { configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

const CATASTROPHIC = "(a+)+$";
/** Exponential backtracking: (a+)+$ on 40 a's then a b would run for days. */
const EVIL_TEXT = `${"a".repeat(40)}b\n`;
const BOUND_MS = 300;

let server: Connected;
let root: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  root = await tempDir("local-model-regex-");
  await writeFile(join(root.path, "evil.txt"), EVIL_TEXT);
  await writeFile(join(root.path, "fine.txt"), "alpha\nbeta\n");
  server = await connect(
    configFor({
      LOCAL_MODEL_ROOTS: root.path,
      LOCAL_MODEL_STATE_DIR: join(root.path, ".state"),
      LOCAL_MODEL_REGEX_TIMEOUT_MS: String(BOUND_MS),
    }),
  );
});
afterAll(async () => {
  await server.close();
  await root.remove();
});

describe("catastrophic regexes are bounded", () => {
  it("stops (a+)+$ at the per-file bound with TIMEOUT naming the pattern and file, then keeps serving", async () => {
    const started = performance.now();
    const { isError, body } = await server.call("local_extract", {
      task_type: "pattern_match",
      files: ["fine.txt", "evil.txt"],
      extract: { patterns: ["beta", CATASTROPHIC] },
    });
    const elapsed = performance.now() - started;
    expect(isError).toBe(true);
    expect(errorOf(body)).toMatchObject({
      code: "TIMEOUT",
      status: 504,
      message: `Pattern '${CATASTROPHIC}' did not finish within ${BOUND_MS} ms on evil.txt and was stopped.`,
    });
    expect(errorOf(body).suggestion).toMatch(/nested quantifiers/);
    expect(elapsed).toBeLessThan(BOUND_MS + 2_000);
    const after = await server.call("local_extract", {
      task_type: "pattern_match",
      files: ["fine.txt"],
      extract: { patterns: ["^b\\w+"] },
    });
    expect(dataOf(after.body).results).toEqual({ "fine.txt": { found: true, data: { "^b\\w+": ["beta"] }, line_numbers: [2] } });
  });

  it("bounds verify's pattern condition the same way", async () => {
    const { body } = await server.call("local_verify", {
      checks: [{ id: "R", description: "x", file: "evil.txt", condition: { type: "pattern", value: CATASTROPHIC } }],
    });
    expect(errorOf(body).code).toBe("TIMEOUT");
  });

  it("terminates the worker thread before answering, and the next search gets a fresh worker", async () => {
    const runner = new RegexRunner(200);
    try {
      const spec = compilePatterns([CATASTROPHIC]);
      // The rejection only arrives once worker.terminate() has resolved, i.e. the thread stopped
      // in the middle of the regex; were V8 unable to interrupt it, this would never settle.
      await expect(runner.search(EVIL_TEXT, spec, { file: "evil", labels: [CATASTROPHIC] })).rejects.toMatchObject({ code: "TIMEOUT" });
      const found = await runner.search("xx aa", compilePatterns(["a+"]), { file: "ok", labels: ["a+"] });
      expect(found.map((m) => m.match)).toEqual(["aa"]);
    } finally {
      await runner.dispose();
    }
  });

  it("aborts with the call's signal", async () => {
    const runner = new RegexRunner(60_000);
    try {
      const controller = new AbortController();
      const pending = runner.search(EVIL_TEXT, compilePatterns([CATASTROPHIC]), {
        file: "evil",
        labels: [CATASTROPHIC],
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(new Error("deadline")), 100);
      await expect(pending).rejects.toThrow("deadline");
    } finally {
      await runner.dispose();
    }
  });
});
