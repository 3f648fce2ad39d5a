import { fetchJson } from "../http/fetch-json.js";
import type { TrackingEvent } from "../tracking/tracking-event.js";
import { defineCarrier } from "./define-carrier.js";

interface CourierStatus {
  status: "collected" | "hub" | "out_for_delivery" | "delivered" | "failed_attempt";
  place?: string;
  timestamp: number;
  signature?: string;
  reason?: string;
}

/** A same-day courier: tracking numbers are `CR-` and 10 digits. */
export const courierCarrier = defineCarrier({
  name: "courier",
  title: "City courier",
  matches: (trackingNumber) => /^CR-\d{10}$/.test(trackingNumber),
  fetchEvents: async (trackingNumber, { signal }) => {
    const history = await fetchJson<{ events: CourierStatus[] }>(`https://api.courier.example/v2/parcels/${trackingNumber}`, { signal });
    return history.events.map(toTrackingEvent);
  },
});

function toTrackingEvent(status: CourierStatus): TrackingEvent {
  const at = new Date(status.timestamp * 1000);
  switch (status.status) {
    case "collected":
      return { kind: "picked-up", at, location: status.place ?? "sender" };
    case "hub":
    case "out_for_delivery":
      return { kind: "in-transit", at, location: status.place ?? "on the road" };
    case "delivered":
      return { kind: "delivered", at, signedBy: status.signature ?? null };
    case "failed_attempt":
      return { kind: "exception", at, reason: status.reason ?? "delivery attempt failed" };
  }
}
