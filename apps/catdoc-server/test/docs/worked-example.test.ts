/**
 * The worked example of docs/catdoc.md ("Worked example: requirements → design → tests"), step by
 * step on a copy of examples/catdoc/traceability: init, import, functors authored through MCP
 * (catdoc_edit) and the CLI, proposals applied, coverage, a missing test written, a changed
 * requirement, its suspect links and their review, and the HTML and ReqIF exports. The CLI runs
 * in-process through its own program; the MCP calls go through the real SDK client. Each command
 * the page shows is checked to be on the page, so the page and this test change together.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../cli/run-in-process.js";
import { call, useCatDoc } from "../mcp/helpers.js";

const EXAMPLE = fileURLToPath(new URL("../../../../examples/catdoc/traceability", import.meta.url));
const DOCS_PAGE = fileURLToPath(new URL("../../../../docs/catdoc.md", import.meta.url));

const { tempDir, connect } = useCatDoc();

const EXPORT_TEST = `---
id: test-export
title: Export tests
category: tests
---
# Export tests

Covers @req-export: the archive holds every note, and nothing else.
`;

describe("docs/catdoc.md worked example on examples/catdoc/traceability", () => {
  it("import, author functors through MCP and the CLI, coverage, change a requirement, review, export HTML and ReqIF", async () => {
    const root = join(await tempDir(), "traceability");
    await cp(EXAMPLE, root, { recursive: true });
    const shown: string[] = [];
    /** `catdoc …` as the page shows it; must succeed with `code`. */
    const catdoc = async (line: string, code = 0) => {
      shown.push(`$ catdoc ${line}`);
      const args = (line.match(/'[^']*'|\S+/g) ?? []).map((word) => word.replace(/^'(.*)'$/, "$1"));
      const result = await runInProcess(args, root);
      expect(result.code, `catdoc ${line}\n${result.stdout}${result.stderr}`).toBe(code);
      return result;
    };

    // 1. init and import: the categories come from the documents' frontmatter, created only when asked.
    await catdoc("init");
    expect((await catdoc("import docs", 1)).stderr).toMatch(/add --create-category to create it/);
    const imported = await catdoc("import docs --create-category");
    expect(imported.stdout).toMatch(/Categories created \(3\)/);
    expect(imported.stdout).toMatch(/Objects added \(11\)/);
    expect(imported.stdout).toMatch(/depends-on--req-session--req-login\s+depends on\s+req-session\s+req-login/);
    expect(imported.stdout).toMatch(/no functor\s+test-login covers req-login\s+requirements → tests: req-login ↦ test-login/);
    expect(imported.stdout).toMatch(/no functor\s+design-auth realizes req-login\s+requirements → design: req-login ↦ design-auth/);

    // 2. Two functors: realize through the CLI, verify through MCP (catdoc_edit); the import's proposals fill them.
    await catdoc("add functor realize --name 'realized by' --source-category requirements --target-category design");
    const client = await connect(root);
    const added = await call(client, "catdoc_edit", {
      op: "add",
      kind: "functor",
      id: "verify",
      fields: { name: "verified by", sourceCategory: "requirements", targetCategory: "tests" },
      response_level: "standard",
    });
    expect(added).toMatchObject({ written: true, changes: [expect.stringContaining("verify")] });
    const applied = await catdoc("import docs --apply-proposals");
    expect(applied.stdout.match(/^ +applied /gm)).toHaveLength(7);

    // 3. The arrows: each unmapped morphism has one candidate image, which map takes when no image is given.
    const gaps = await catdoc("validate", 1);
    expect(gaps.stdout).toMatch(
      /FUNCTOR_UNMAPPED_MORPHISM .*functor=realize morphism=depends-on--req-session--req-login .*candidate image: 'depends-on--design-session--design-auth'/,
    );
    for (const morphism of ["depends-on--req-session--req-login", "extends--req-audit--req-session", "depends-on--req-audit--req-login"]) {
      await catdoc(`map functor realize ${morphism}`);
      const mapped = await call(client, "catdoc_edit", { op: "map", kind: "functor", id: "verify", from: morphism });
      expect(mapped, morphism).toMatchObject({ written: true, counts: { changes: 1 } });
    }
    shown.push('"op": "map"');

    // 4. Validation and coverage: req-export has no test yet.
    const invalid = await catdoc("validate", 1);
    expect(invalid.stdout).toMatch(/FUNCTOR_UNMAPPED_OBJECT .*functor=verify object=req-export/);
    expect(invalid.stdout).toMatch(/^INVALID: \d+ errors?, 0 warnings/m);
    const partial = await catdoc("coverage --functor verify --fail-under 100", 1);
    expect(partial.stdout).toMatch(/verify\s+requirements → tests\s+4\s+3\s+0\s+1\s+75\.0%/);
    expect(partial.stdout).toMatch(/uncovered:\s+req-export/);

    // 5. Write the missing test; the next import maps it; everything validates and is covered.
    await writeFile(join(root, "docs/tests/export.md"), EXPORT_TEST);
    shown.push("docs/tests/export.md");
    const second = await catdoc("import docs --apply-proposals");
    expect(second.stdout).toMatch(/applied\s+test-export covers req-export/);
    expect((await catdoc("validate")).stdout).toMatch(/^VALID: 0 errors, 0 warnings \(3 categories, 2 functors/m);
    expect((await catdoc("coverage --fail-under 100")).stdout).toMatch(/verify\s+requirements → tests\s+4\s+4\s+0\s+0\s+100\.0%/);

    // 6. Review everything once, change a requirement: its links become suspect, here and through the functors.
    expect((await catdoc("review --all")).stdout).toMatch(/Reviewed \d+ links\./);
    const session = join(root, "docs/requirements/session.md");
    await writeFile(session, (await readFile(session, "utf8")).replace("after thirty", "after fifteen"));
    const suspect = await catdoc("validate --strict", 1);
    for (const link of ["depends-on--req-session--req-login", "realize/req-session", "verify/req-session"]) {
      expect(suspect.stdout).toMatch(new RegExp(`SUSPECT_LINK\\s+link=${link} documents=req-session`));
    }
    expect(suspect.stdout).toMatch(/SUSPECT_LINK\s+link=depends-on--test-session--test-login documents=req-session .*through/);
    const diff = await catdoc("diff");
    expect(diff.stdout).toMatch(/^-.*A session ends after thirty$/m);
    expect(diff.stdout).toMatch(/^\+.*A session ends after fifteen$/m);
    const reviewed = await catdoc("review depends-on--req-session--req-login extends--req-audit--req-session realize verify");
    expect(reviewed.stdout).toMatch(/cleared through them: /);
    await catdoc("validate --strict");

    // 7. Exports: a self-contained HTML matrix and ReqIF 1.2.
    await catdoc("export --out trace.html");
    const html = await readFile(join(root, "trace.html"), "utf8");
    expect(html).toContain("req-export");
    // Opens without a server: no script, nothing fetched (links only within the page, or data: URLs).
    expect(html).not.toMatch(/<script|(?:src|href)="(?!#|data:)/);
    await catdoc("export --out trace.reqif");
    const reqif = new XMLParser({ ignoreAttributes: false }).parse(await readFile(join(root, "trace.reqif"), "utf8")) as {
      "REQ-IF": { "CORE-CONTENT": { "REQ-IF-CONTENT": { "SPEC-OBJECTS": { "SPEC-OBJECT": unknown[] } } } };
    };
    expect(reqif["REQ-IF"]["CORE-CONTENT"]["REQ-IF-CONTENT"]["SPEC-OBJECTS"]["SPEC-OBJECT"]).toHaveLength(12);

    // The page shows these very steps.
    const page = await readFile(DOCS_PAGE, "utf8");
    const start = page.indexOf("## Worked example");
    const section = page.slice(start, page.indexOf("\n## ", start + 1));
    expect(start, "docs/catdoc.md has the worked example").toBeGreaterThan(0);
    for (const step of shown) expect(section, step).toContain(step.startsWith("$ ") ? step.slice(2) : step);
  });
});
