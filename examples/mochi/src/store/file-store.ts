import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { ParcelError } from "../errors.js";
import type { Shipment } from "../tracking/tracker.js";
import type { ShipmentStore } from "./shipment-store.js";

export interface FileStoreOptions {
  path: string;
  /** Write to disk after this many changes (default 1: every change). */
  flushEvery?: number;
}

type StoredShipment = Omit<Shipment, "events" | "state"> & { events: unknown[]; state: unknown };

/** Shipments in one JSON file, written atomically (temporary file, then rename). */
export class FileShipmentStore implements ShipmentStore {
  private shipments: Map<string, Shipment> | undefined;
  private pending = 0;
  private closed = false;

  constructor(private readonly options: FileStoreOptions) {}

  async get(trackingNumber: string): Promise<Shipment | undefined> {
    return (await this.load()).get(trackingNumber);
  }

  async put(shipment: Shipment): Promise<void> {
    if (this.closed) throw new ParcelError("STORE_CLOSED", `The store at ${this.options.path} is closed`);
    (await this.load()).set(shipment.trackingNumber, shipment);
    this.pending += 1;
    if (this.pending >= (this.options.flushEvery ?? 1)) await this.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async load(): Promise<Map<string, Shipment>> {
    if (this.shipments) return this.shipments;
    try {
      const stored = JSON.parse(await readFile(this.options.path, "utf8")) as StoredShipment[];
      this.shipments = new Map(stored.map((s) => [s.trackingNumber, revive(s)]));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        throw new ParcelError("STORE_UNREADABLE", `Cannot read ${this.options.path}`, { cause: error });
      }
      this.shipments = new Map();
    }
    return this.shipments;
  }

  private async flush(): Promise<void> {
    if (this.pending === 0 || !this.shipments) return;
    await mkdir(dirname(this.options.path), { recursive: true });
    const temporary = `${this.options.path}.tmp`;
    await writeFile(temporary, JSON.stringify([...this.shipments.values()], null, 2));
    await rename(temporary, this.options.path);
    this.pending = 0;
  }
}

function revive(stored: StoredShipment): Shipment {
  const events = (stored.events as Array<Record<string, unknown>>).map((e) => ({ ...e, at: new Date(e.at as string) }));
  return { ...stored, events, state: stored.state } as Shipment;
}
