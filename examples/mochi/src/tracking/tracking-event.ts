/** One thing that happened to a parcel, as every carrier reports it after translation. */
export type TrackingEvent =
  | { kind: "picked-up"; at: Date; location: string }
  | { kind: "in-transit"; at: Date; location: string }
  | { kind: "delivered"; at: Date; signedBy: string | null }
  | { kind: "exception"; at: Date; reason: string };

/** Where a parcel stands, derived from its events. */
export type ShipmentState =
  | { state: "unknown" }
  | { state: "moving"; since: Date; lastSeenAt: string }
  | { state: "delivered"; at: Date }
  | { state: "held"; reason: string };

/** The state after the latest event; events may arrive in any order. */
export function shipmentStateOf(events: readonly TrackingEvent[]): ShipmentState {
  const latest = [...events].sort((a, b) => a.at.getTime() - b.at.getTime()).at(-1);
  if (!latest) return { state: "unknown" };
  switch (latest.kind) {
    case "picked-up":
    case "in-transit":
      return { state: "moving", since: latest.at, lastSeenAt: latest.location };
    case "delivered":
      return { state: "delivered", at: latest.at };
    case "exception":
      return { state: "held", reason: latest.reason };
  }
}
