import { UnknownCarrierError } from "../errors.js";
import type { TrackingEvent } from "../tracking/tracking-event.js";

export interface CarrierRequestOptions {
  signal?: AbortSignal;
}

/** A carrier: how to recognise its tracking numbers and how to fetch a parcel's events. */
export interface Carrier {
  name: string;
  title: string;
  /** Whether a tracking number belongs to this carrier. */
  matches(trackingNumber: string): boolean;
  fetchEvents(trackingNumber: string, options: CarrierRequestOptions): Promise<TrackingEvent[]>;
}

/** Declares a carrier; the object is returned as it is, typed. */
export function defineCarrier(carrier: Carrier): Carrier {
  return carrier;
}

const carriers = new Map<string, Carrier>();

/** Adds a carrier under its name; a second carrier with the same name replaces the first. */
export function registerCarrier(carrier: Carrier): void {
  carriers.set(carrier.name, carrier);
}

/** The carrier registered as `name`, or UnknownCarrierError. */
export function getCarrier(name: string): Carrier {
  const carrier = carriers.get(name);
  if (!carrier) throw new UnknownCarrierError(name);
  return carrier;
}

/** The first registered carrier whose format fits the tracking number. */
export function findCarrierFor(trackingNumber: string): Carrier | undefined {
  for (const carrier of carriers.values()) {
    if (carrier.matches(trackingNumber)) return carrier;
  }
  return undefined;
}
