/** Base class of every failure parcel-track reports, with a machine-readable code. */
export class ParcelError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ParcelError";
  }
}

/** No carrier is registered under the name a tracking number asked for. */
export class UnknownCarrierError extends ParcelError {
  constructor(readonly carrier: string) {
    super("UNKNOWN_CARRIER", `No carrier is registered as '${carrier}'`);
    this.name = "UnknownCarrierError";
  }
}

/** A carrier's service failed or answered something we cannot read; worth retrying later. */
export class CarrierUnavailableError extends ParcelError {
  constructor(
    readonly carrier: string,
    cause: unknown,
  ) {
    super("CARRIER_UNAVAILABLE", `Carrier '${carrier}' is unavailable`, { cause });
    this.name = "CarrierUnavailableError";
  }
}

/** A tracking number that does not match the carrier's format. */
export class InvalidTrackingNumberError extends ParcelError {
  constructor(readonly trackingNumber: string) {
    super("INVALID_TRACKING_NUMBER", `'${trackingNumber}' is not a valid tracking number`);
    this.name = "InvalidTrackingNumberError";
  }
}
