import type { Shipment } from "../tracking/tracker.js";

/** Where the tracker keeps the last answer for each tracking number. */
export interface ShipmentStore {
  get(trackingNumber: string): Promise<Shipment | undefined>;
  put(shipment: Shipment): Promise<void>;
  close(): Promise<void>;
}

/** A store in memory, for tests and short-lived scripts. */
export function createMemoryStore(): ShipmentStore {
  const shipments = new Map<string, Shipment>();
  return {
    get: async (trackingNumber) => shipments.get(trackingNumber),
    put: async (shipment) => {
      shipments.set(shipment.trackingNumber, shipment);
    },
    close: async () => shipments.clear(),
  };
}
