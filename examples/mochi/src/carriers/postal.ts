import { fetchJson } from "../http/fetch-json.js";
import type { TrackingEvent } from "../tracking/tracking-event.js";
import { defineCarrier } from "./define-carrier.js";

interface PostalScan {
  code: "ACCEPTED" | "IN_TRANSIT" | "DELIVERED";
  office: string;
  time: string;
}

/** The national postal service: 13-character S10 numbers such as RR123456785GB. */
export const postalCarrier = defineCarrier({
  name: "postal",
  title: "Postal service",
  matches: (trackingNumber) => /^[A-Z]{2}\d{9}[A-Z]{2}$/.test(trackingNumber),
  fetchEvents: async (trackingNumber, { signal }) => {
    const scans = await fetchJson<PostalScan[]>(`https://postal.example/track/${trackingNumber}`, { signal });
    return scans.map(toTrackingEvent);
  },
});

function toTrackingEvent(scan: PostalScan): TrackingEvent {
  const at = new Date(scan.time);
  switch (scan.code) {
    case "ACCEPTED":
      return { kind: "picked-up", at, location: scan.office };
    case "IN_TRANSIT":
      return { kind: "in-transit", at, location: scan.office };
    case "DELIVERED":
      return { kind: "delivered", at, signedBy: null };
  }
}
