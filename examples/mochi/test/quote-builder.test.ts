import { describe, expect, it } from "vitest";
import { createQuote, QuoteBuilder } from "../src/rates/quote-builder.js";

describe("QuoteBuilder", () => {
  it("charges whole kilograms per carrier, 1.5× for express, 1% of the insured value", () => {
    const quote = new QuoteBuilder("courier").weight(1.2).insure(10_000).express().build();
    expect(quote.priceCents).toBe(Math.round(2 * 900 * 1.5) + 100);
  });

  it("charges volumetric weight for light, bulky parcels", () => {
    expect(new QuoteBuilder("postal").weight(1).volume(20).build().priceCents).toBe(4 * 450);
  });

  it("refuses carriers without rates", () => {
    expect(() => createQuote("pigeon", 1)).toThrow(/No rates/);
  });
});
