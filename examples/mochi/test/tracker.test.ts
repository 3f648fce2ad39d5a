import { describe, expect, it } from "vitest";
import { defineCarrier, registerCarrier } from "../src/carriers/index.js";
import { createMemoryStore } from "../src/store/shipment-store.js";
import { createTracker } from "../src/tracking/tracker.js";

const testCarrier = defineCarrier({
  name: "test",
  title: "Test carrier",
  matches: (trackingNumber) => trackingNumber.startsWith("T-"),
  fetchEvents: async (trackingNumber) => {
    if (trackingNumber === "T-down") throw new Error("connection refused");
    return [
      { kind: "picked-up", at: new Date("2024-05-01T08:00:00Z"), location: "Leeds" },
      { kind: "delivered", at: new Date("2024-05-02T12:30:00Z"), signedBy: "R. Patel" },
    ];
  },
});
registerCarrier(testCarrier);

describe("createTracker", () => {
  it("derives the state from the latest event and stores the shipment", async () => {
    const store = createMemoryStore();
    const tracker = createTracker({ store, now: () => 0 });
    const result = await tracker.track("T-1");
    expect(result.ok && result.value.state).toEqual({ state: "delivered", at: new Date("2024-05-02T12:30:00Z") });
    expect(await store.get("T-1")).toBeDefined();
  });

  it("returns CARRIER_UNAVAILABLE as a value when the carrier fails", async () => {
    const result = await createTracker({ store: createMemoryStore() }).track("T-down");
    expect(result.ok ? undefined : result.error.code).toBe("CARRIER_UNAVAILABLE");
  });

  it("returns INVALID_TRACKING_NUMBER when no carrier recognises the number", async () => {
    const result = await createTracker({ store: createMemoryStore() }).track("???");
    expect(result.ok ? undefined : result.error.code).toBe("INVALID_TRACKING_NUMBER");
  });
});
