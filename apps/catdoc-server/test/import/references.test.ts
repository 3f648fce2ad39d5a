/** What counts as a reference in a Markdown document, and the first heading. */
import { describe, expect, it } from "vitest";
import { extractReferences, firstHeading } from "../../src/domain/import/index.js";
import { originalFile } from "../domain/helpers.js";

describe("references", () => {
  it("finds @ids, wiki links and relative Markdown links in the original's sample document", async () => {
    const { body } = await import("../../src/domain/index.js").then(async (d) =>
      d.parseMarkdown(await originalFile("tests/fixtures/sample-document.md")),
    );
    expect(extractReferences(body)).toEqual([
      { kind: "@ref", value: "related-object-id" },
      { kind: "wikilink", value: "another-document" },
      { kind: "link", value: "./other-document.md" },
    ]);
  });

  it("ignores code, comments, e-mail addresses, images, external links and non-Markdown files", () => {
    const text = [
      "Mail me at someone@example.com or see @real-ref.",
      "`@inline-code` and <!-- @commented -->",
      "```",
      "@fenced [[fenced]] [x](./fenced.md)",
      "```",
      "![image](./pic.md) [site](https://example.com/a.md) [anchor](#part) [pdf](./file.pdf)",
      "[[Page Name|shown text]] [[other#section]] [doc](<./with space.md>) [enc](./a%20b.md#top) [root](/docs/x.md)",
      "Again @real-ref. and [[Page Name]]",
    ].join("\n");
    expect(extractReferences(text)).toEqual([
      { kind: "@ref", value: "real-ref" },
      { kind: "wikilink", value: "Page Name" },
      { kind: "wikilink", value: "other" },
      { kind: "link", value: "./with space.md" },
      { kind: "link", value: "./a b.md" },
      { kind: "link", value: "/docs/x.md" },
    ]);
  });

  it("takes the first heading outside code", () => {
    expect(firstHeading("```\n# not this\n```\n\nText\n\n## The `real` one ##\n# later")).toBe("The `real` one");
    expect(firstHeading("no heading here")).toBeUndefined();
  });
});
