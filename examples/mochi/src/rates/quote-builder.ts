import { ParcelError } from "../errors.js";

export interface Quote {
  carrier: string;
  weightKg: number;
  volumeLitres: number;
  insuredValue: number;
  express: boolean;
  priceCents: number;
}

const PRICE_PER_KG_CENTS: Readonly<Record<string, number>> = { postal: 450, courier: 900, freight: 120 };

/** Builds a price quote step by step: `new QuoteBuilder("postal").weight(2).express().build()`. */
export class QuoteBuilder {
  private weightKg = 0;
  private volumeLitres = 0;
  private insuredValue = 0;
  private isExpress = false;

  constructor(private readonly carrier: string) {}

  weight(kg: number): this {
    if (kg <= 0) throw new ParcelError("INVALID_WEIGHT", `A parcel weighs more than ${kg} kg`);
    this.weightKg = kg;
    return this;
  }

  volume(litres: number): this {
    this.volumeLitres = litres;
    return this;
  }

  insure(value: number): this {
    this.insuredValue = value;
    return this;
  }

  express(): this {
    this.isExpress = true;
    return this;
  }

  build(): Quote {
    const perKg = PRICE_PER_KG_CENTS[this.carrier];
    if (perKg === undefined) throw new ParcelError("NO_RATES", `No rates for carrier '${this.carrier}'`);
    // Volumetric weight: 5 litres count as 1 kg when the parcel is light for its size.
    const chargedKg = Math.max(this.weightKg, this.volumeLitres / 5);
    const base = Math.ceil(chargedKg) * perKg;
    const insurance = Math.round(this.insuredValue * 0.01);
    const priceCents = (this.isExpress ? Math.round(base * 1.5) : base) + insurance;
    return { carrier: this.carrier, weightKg: this.weightKg, volumeLitres: this.volumeLitres, insuredValue: this.insuredValue, express: this.isExpress, priceCents };
  }
}

/** A quote for a parcel of `weightKg` with the cheapest options. */
export function createQuote(carrier: string, weightKg: number): Quote {
  return new QuoteBuilder(carrier).weight(weightKg).build();
}
