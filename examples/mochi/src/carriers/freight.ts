import { fetchJson } from "../http/fetch-json.js";
import type { TrackingEvent } from "../tracking/tracking-event.js";
import { defineCarrier } from "./define-carrier.js";

interface FreightLeg {
  from: string;
  to: string;
  departed: string;
  arrived: string | null;
}

/** Pallet freight: bills of lading such as FRT/2024/000123. */
export const freightCarrier = defineCarrier({
  name: "freight",
  title: "Pallet freight",
  matches: (trackingNumber) => /^FRT\/\d{4}\/\d{6}$/.test(trackingNumber),
  fetchEvents: async (trackingNumber, { signal }) => {
    const legs = await fetchJson<FreightLeg[]>(`https://freight.example/bol/${encodeURIComponent(trackingNumber)}/legs`, { signal });
    return legs.flatMap(toTrackingEvents);
  },
});

function toTrackingEvents(leg: FreightLeg, index: number): TrackingEvent[] {
  const departed: TrackingEvent =
    index === 0 ? { kind: "picked-up", at: new Date(leg.departed), location: leg.from } : { kind: "in-transit", at: new Date(leg.departed), location: leg.from };
  if (leg.arrived === null) return [departed];
  return [departed, { kind: "in-transit", at: new Date(leg.arrived), location: leg.to }];
}
