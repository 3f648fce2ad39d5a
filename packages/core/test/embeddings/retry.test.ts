import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/errors.js";
import { backoffDelayMs } from "../../src/embeddings/index.js";
import { withRetry } from "../../src/embeddings/retry.js";

const policy = { attempts: 5, initialDelayMs: 100, maxDelayMs: 1_000 };

describe("backoffDelayMs", () => {
  it("doubles the ceiling each retry, jitters within its upper half, and caps at maxDelayMs", () => {
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelayMs(policy, retry, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelayMs(policy, retry, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it("honours a server hint but never beyond maxDelayMs", () => {
    expect(backoffDelayMs(policy, 0, () => 0, 700)).toBe(700);
    expect(backoffDelayMs(policy, 0, () => 0, 60_000)).toBe(1_000);
  });
});

describe("withRetry", () => {
  const hooks = (signal?: AbortSignal) => ({
    policy: { attempts: 3, initialDelayMs: 1, maxDelayMs: 2 },
    signal,
    what: "The test call",
    classify: (error: unknown) => (error instanceof ToolError ? { retry: false as const, error } : { retry: true as const, error }),
    exhausted: (error: unknown, attempts: number) => new ToolError("UPSTREAM_ERROR", `gave up after ${attempts}: ${String(error)}`),
  });

  it("retries retryable failures and returns the first success", async () => {
    let calls = 0;
    const result = await withRetry(async (n) => {
      calls++;
      if (n < 3) throw new Error(`flaky ${n}`);
      return "done";
    }, hooks());
    expect(result).toBe("done");
    expect(calls).toBe(3);
  });

  it("stops after the bounded number of attempts", async () => {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw new Error("down");
      }, hooks()),
    ).rejects.toMatchObject({ code: "UPSTREAM_ERROR", message: "gave up after 3: Error: down" });
    expect(calls).toBe(3);
  });

  it("does not retry a failure classified as final", async () => {
    let calls = 0;
    const final = new ToolError("UPSTREAM_ERROR", "bad request");
    await expect(
      withRetry(async () => {
        calls++;
        throw final;
      }, hooks()),
    ).rejects.toBe(final);
    expect(calls).toBe(1);
  });

  it("ends a backoff wait as soon as the signal aborts", async () => {
    const controller = new AbortController();
    let calls = 0;
    const running = withRetry(
      async () => {
        calls++;
        throw new Error("down");
      },
      {
        ...hooks(controller.signal),
        policy: { attempts: 3, initialDelayMs: 600_000, maxDelayMs: 600_000 },
        onRetry: () => controller.abort(),
      },
    );
    await expect(running).rejects.toMatchObject({ code: "TIMEOUT", details: { cancelled: true } });
    expect(calls).toBe(1);
  });
});
