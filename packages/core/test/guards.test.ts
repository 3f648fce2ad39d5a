import { describe, expect, it } from "vitest";
import { MemoryGuard, Readiness, ToolError, abortableDelay, withDeadline } from "../src/index.js";

const GiB = 1024 ** 3;

describe("MemoryGuard (L-memory-bound)", () => {
  const guard = (rss: number, available: number, bound: number) =>
    new MemoryGuard({ boundBytes: bound, rssBytes: () => rss, availableBytes: () => available });

  it("admits a load that fits under the bound and in free memory", () => {
    expect(() => guard(1 * GiB, 16 * GiB, 8 * GiB).admit(2 * GiB, "model.gguf")).not.toThrow();
  });

  it("refuses a load that would pass the bound, naming what and how much", () => {
    try {
      guard(1 * GiB, 16 * GiB, 2 * GiB).admit(3 * GiB, "model.gguf");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolError);
      const e = error as ToolError;
      expect(e.code).toBe("RESOURCE_EXHAUSTED");
      expect(e.status).toBe(507);
      expect(e.message).toMatch(/model\.gguf needs about 3\.00 GiB.*bound of 2\.00 GiB/);
    }
  });

  it("refuses a load larger than the free memory even under the bound", () => {
    expect(() => guard(0, 1 * GiB, 32 * GiB).admit(4 * GiB, "model.gguf")).toThrow(/only 1\.00 GiB is free/);
  });

  it("watch aborts running work when RSS passes the bound", async () => {
    let rss = 100;
    const g = new MemoryGuard({ boundBytes: 1000, rssBytes: () => rss, availableBytes: () => GiB });
    const controller = new AbortController();
    const stop = g.watch(controller, 5);
    const work = abortableDelay(2_000, controller.signal);
    rss = 5_000;
    await expect(work).rejects.toMatchObject({ code: "RESOURCE_EXHAUSTED" });
    stop();
  });
});

describe("withDeadline", () => {
  it("passes results through and clears its timer", async () => {
    await expect(withDeadline(async () => 42, { timeoutMs: 1_000 })).resolves.toBe(42);
  });

  it("passes the work's own ToolError through", async () => {
    await expect(
      withDeadline(
        async () => {
          throw new ToolError("NOT_FOUND", "nope");
        },
        { timeoutMs: 1_000 },
      ),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("aborts the work when the outer signal aborts (client cancellation)", async () => {
    const outer = new AbortController();
    let sawAbort = false;
    const running = withDeadline(
      async (signal) => {
        try {
          await abortableDelay(5_000, signal);
        } catch (reason) {
          sawAbort = signal.aborted && reason === signal.reason;
          throw reason;
        }
      },
      { timeoutMs: 5_000, signal: outer.signal },
    );
    outer.abort();
    await expect(running).rejects.toMatchObject({ code: "TIMEOUT", details: { cancelled: true } });
    expect(sawAbort).toBe(true);
  });
});

describe("Readiness (L-adapter-required)", () => {
  it("reports each state in its error", () => {
    const r = new Readiness("LoRA adapter");
    expect(() => r.assertReady()).toThrow(/LoRA adapter is not ready: LoRA adapter is not configured/);
    r.markReady();
    expect(() => r.assertReady()).not.toThrow();
    expect(r.isReady).toBe(true);
  });
});
