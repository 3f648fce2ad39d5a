import { findCarrierFor, getCarrier, type Carrier } from "../carriers/index.js";
import { CarrierUnavailableError, InvalidTrackingNumberError, ParcelError } from "../errors.js";
import { err, ok, type Result } from "../result.js";
import type { ShipmentStore } from "../store/shipment-store.js";
import { shipmentStateOf, type ShipmentState, type TrackingEvent } from "./tracking-event.js";

export interface TrackerOptions {
  store: ShipmentStore;
  /** How long a stored answer is fresh enough to skip the carrier (default 5 minutes). */
  maxAgeMs?: number;
  now?: () => number;
}

export interface TrackOptions {
  /** Force a carrier instead of guessing it from the number's format. */
  carrier?: string;
  signal?: AbortSignal;
}

export interface Shipment {
  trackingNumber: string;
  carrier: string;
  events: TrackingEvent[];
  state: ShipmentState;
  checkedAt: number;
}

export interface Tracker {
  track(trackingNumber: string, options?: TrackOptions): Promise<Result<Shipment>>;
}

/** A tracker that asks the carriers and keeps their answers in the store. */
export function createTracker(options: TrackerOptions): Tracker {
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;

  async function track(trackingNumber: string, { carrier: forced, signal }: TrackOptions = {}): Promise<Result<Shipment>> {
    const cached = await options.store.get(trackingNumber);
    if (cached && now() - cached.checkedAt < maxAgeMs) return ok(cached);

    let carrier: Carrier | undefined;
    try {
      carrier = forced === undefined ? findCarrierFor(trackingNumber) : getCarrier(forced);
    } catch (error) {
      if (error instanceof ParcelError) return err(error);
      throw error;
    }
    if (!carrier) return err(new InvalidTrackingNumberError(trackingNumber));

    let events: TrackingEvent[];
    try {
      events = await carrier.fetchEvents(trackingNumber, { signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      return err(new CarrierUnavailableError(carrier.name, error));
    }
    const shipment: Shipment = { trackingNumber, carrier: carrier.name, events, state: shipmentStateOf(events), checkedAt: now() };
    await options.store.put(shipment);
    return ok(shipment);
  }

  return { track };
}
