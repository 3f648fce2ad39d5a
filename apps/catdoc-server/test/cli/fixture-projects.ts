/** Temporary copies of the original CatDoc examples, laid out as projects (category.yaml in .catdoc/). */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { copyExample } from "../domain/helpers.js";

export type Example = "math-docs" | "dev-project";

/** One copy of each example for the whole test file (for commands that only read). */
export function useExampleProjects(): Record<Example, string> {
  const roots = { "math-docs": "", "dev-project": "" } as Record<Example, string>;
  let base = "";
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "catdoc-cli-"));
    for (const example of ["math-docs", "dev-project"] as const) {
      roots[example] = join(base, example);
      await copyExample(roots[example], example);
    }
  });
  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });
  return roots;
}
