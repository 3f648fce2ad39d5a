/** catdoc_get_graph's default page fits the 25,000-token budget at every level, and pages on with nextOffset. */
import { describe, expect, it } from "vitest";
import { writeGeneratedProject } from "../../src/testing/generate-project.js";
import { call, callRaw, useCatDoc } from "./helpers.js";

const { tempDir, connect } = useCatDoc();

const LEVELS = ["minimal", "standard", "full"] as const;

describe("catdoc_get_graph's default page", () => {
  it.each([
    { objects: 300, morphisms: 1500 },
    { objects: 2000, morphisms: 10_000 },
  ])(
    "fits at every level on a project of $objects objects and $morphisms morphisms, and its pages cover every node once",
    async (size) => {
      const root = await tempDir();
      await writeGeneratedProject(root, { ...size, functors: 4, naturalTransformations: 2, seed: 7 });
      const client = await connect(root);
      const pages: string[][] = [];
      for (const level of LEVELS) {
        const result = await callRaw(client, "catdoc_get_graph", { response_level: level });
        expect(result.isError, `${level}: ${JSON.stringify(result.structuredContent).slice(0, 300)}`).not.toBe(true);
        const page = result.structuredContent as { total: number; returned: number; truncated: boolean; nextOffset?: number };
        expect(page.total).toBe(size.objects);
        expect(page.returned).toBeGreaterThan(0);
        expect(page.returned).toBeLessThanOrEqual(200);
        expect(page).toMatchObject({ truncated: true, nextOffset: page.returned });
        pages.push((page as unknown as { nodeIds: string[] }).nodeIds);
      }
      // The same page at every level: minimal ⊆ standard ⊆ full.
      expect(pages[1]).toEqual(pages[0]);
      expect(pages[2]).toEqual(pages[0]);
      // Following nextOffset at full (no limit given) visits every node once, in order.
      const seen: string[] = [];
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        const page = await call(client, "catdoc_get_graph", { offset, response_level: "full" });
        seen.push(...(page.nodeIds as string[]));
        offset = page.nextOffset as number | undefined;
      }
      expect(seen).toHaveLength(size.objects);
      expect(new Set(seen).size).toBe(size.objects);
    },
    120_000,
  );

  it("keeps an explicit limit as asked: 200 nodes at minimal", async () => {
    const root = await tempDir();
    await writeGeneratedProject(root, { objects: 300, morphisms: 1500, functors: 2, seed: 3 });
    const client = await connect(root);
    expect(await call(client, "catdoc_get_graph", { limit: 200 })).toMatchObject({ total: 300, returned: 200, nextOffset: 200 });
  });
});
