/**
 * Every `examples/…` path the user docs cite exists (issue #14: docs/catdoc.md cited
 * `examples/math-docs` and `examples/dev-project`, which were never in examples/). Checks every
 * page of docs/, not only catdoc's: a path is cited relative to the repository root
 * (`examples/catdoc`, `apps/…/examples/math-docs`) or, as a Markdown link, relative to docs/
 * (`../examples/solo-assets/`). URIs such as `mochi://examples/{id}` are not paths.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const DOCS = join(REPO, "docs");
const CITED = /(?<![\w:/.@{}-])((?:\.\.\/|[\w.-]+\/)*examples\/[\w.@-]+(?:\/[\w.@-]+)*)/g;

/** The `examples/…` paths a Markdown text cites, without sentence punctuation. */
function citedExamplePaths(text: string): string[] {
  return [...text.matchAll(CITED)].map((match) => (match[1] ?? "").replace(/[.]+$/, ""));
}

describe("examples cited by the docs", () => {
  it("finds paths and leaves URIs alone", () => {
    expect(citedExamplePaths("cp -r examples/catdoc /tmp/q; see [x](../examples/solo-assets/) and `a/b/examples/math-docs`.")).toEqual([
      "examples/catdoc",
      "../examples/solo-assets",
      "a/b/examples/math-docs",
    ]);
    expect(citedExamplePaths("`mochi://examples/{id}` and mochi://examples/x")).toEqual([]);
  });

  const pages = readdirSync(DOCS).filter((name) => name.endsWith(".md"));
  it.each(pages)("docs/%s cites only examples that exist", (page) => {
    const missing = citedExamplePaths(readFileSync(join(DOCS, page), "utf8")).filter(
      (path) => !existsSync(path.startsWith("../") ? resolve(DOCS, path) : join(REPO, path)),
    );
    expect(missing).toEqual([]);
  });
});
