/**
 * FunctionLibrary.nearestFunctions: the stored functions nearest a text by embedding similarity
 * (what a save's near-duplicate check asks), through the real commit path and search index.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SoloServices } from "../src/services.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { tempLibrary, testServices } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

let library: TempLibrary;
let services: SoloServices;

const SLUGIFY =
  'def slugify(text: str) -> str:\n    """Lowercase the text and join its words with hyphens."""\n    return "-".join(text.lower().split())\n';
const MEDIAN =
  'def median(values: list[float]) -> float:\n    """The middle value of the sorted numbers."""\n    return sorted(values)[len(values) // 2]\n';

beforeAll(async () => {
  library = tempLibrary();
  services = testServices(library.dbPath);
  await commitUnchecked(services, { name: "slugify", code: SLUGIFY, description: "Turn a title into a URL slug", tags: ["text"] });
  await commitUnchecked(services, { name: "median", code: MEDIAN, description: "The median of a list of numbers", tags: ["math"] });
});

afterAll(async () => {
  await services?.dispose();
  library?.remove();
});

describe("nearestFunctions", () => {
  it("names the stored function a copy resembles, with its similarity, best first", async () => {
    const near = await services.library.nearestFunctions("make_slug: Turn a title into a URL slug of hyphen-joined words", 2);
    expect(near.map((n) => n.name)).toEqual(["slugify", "median"]);
    expect(near[0]?.similarity).toBeGreaterThan(0.4);
    expect(near[0]?.similarity ?? 0).toBeGreaterThan(near[1]?.similarity ?? 1);
  });

  it("leaves out the excluded name and honours k", async () => {
    const near = await services.library.nearestFunctions("Turn a title into a URL slug", 1, { exclude: "slugify" });
    expect(near).toEqual([{ name: "median", similarity: expect.any(Number) }]);
  });
});
