import { courierCarrier } from "./courier.js";
import { registerCarrier, type Carrier } from "./define-carrier.js";
import { freightCarrier } from "./freight.js";
import { postalCarrier } from "./postal.js";

/** Every carrier parcel-track knows; `registerBuiltInCarriers` registers them all. */
export const BUILT_IN_CARRIERS: readonly Carrier[] = [postalCarrier, courierCarrier, freightCarrier];

export function registerBuiltInCarriers(): void {
  for (const carrier of BUILT_IN_CARRIERS) registerCarrier(carrier);
}

export { defineCarrier, findCarrierFor, getCarrier, registerCarrier } from "./define-carrier.js";
export type { Carrier, CarrierRequestOptions } from "./define-carrier.js";
