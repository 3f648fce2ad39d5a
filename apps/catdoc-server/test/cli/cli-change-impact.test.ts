/**
 * `catdoc validate` (SUSPECT_LINK), `catdoc review` and `catdoc diff`, run in-process through the
 * CLI's own program (runCli with captured stdout and stderr), on the requirements → design → tests
 * project of the domain tests.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { categoryFile, editDocument, writeTraceProject } from "../domain/change-impact-fixture.js";
import { useTempDirs } from "../domain/helpers.js";
import { runInProcess } from "./run-in-process.js";

const tempDir = useTempDirs();

const catdoc = (root: string, ...args: string[]) => runInProcess(["--project", root, ...args], root);

interface JsonReport {
  isValid: boolean;
  warnings: { code: string; linkId?: string; documentIds?: string[]; message: string }[];
  changeImpact: Record<string, number>;
}

describe("catdoc validate, review and diff", () => {
  it("an edited requirement: SUSPECT_LINK warnings naming link and document (exit 0; 1 with --strict); review silences them", async () => {
    const root = await writeTraceProject(await tempDir());
    // Before any review (a project from before reviews): nothing suspect, nothing said.
    expect(await catdoc(root, "validate", "--strict")).toEqual({
      code: 0,
      stdout: "VALID: 0 errors, 0 warnings (3 categories, 2 functors, 0 natural transformations checked)\n",
      stderr: "",
    });
    const baseline = await catdoc(root, "review", "--all");
    expect(baseline).toMatchObject({ code: 0, stderr: "" });
    expect(baseline.stdout).toContain("Reviewed 15 links.");

    await editDocument(root, "docs/req-session.md");
    const json = await catdoc(root, "validate", "--format", "json");
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as JsonReport;
    expect(report.isValid).toBe(true);
    const suspect = report.warnings.filter((w) => w.code === "SUSPECT_LINK");
    expect(suspect.find((w) => w.linkId === "req-login-session")).toMatchObject({ documentIds: ["req-session"] });
    expect(suspect.find((w) => w.linkId === "req-login-session")?.message).toContain("document 'req-session' (target");
    expect(suspect.find((w) => w.linkId === "tests/design-session")?.message).toContain("suspect through 'designs/req-session' (functor)");
    expect(report.changeImpact).toMatchObject({ links: 15, reviewed: 15, unreviewed: 0, suspect: suspect.length, direct: 3 });

    const table = await catdoc(root, "validate");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^warning\s+SUSPECT_LINK\s+link=req-login-session documents=req-session\s+/m);
    const strict = await catdoc(root, "validate", "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stdout.trimEnd().split("\n").at(-1)).toMatch(/^FAILED \(--strict: warnings count\): 0 errors, \d+ warnings/);
    // Scoped: the functor's own mapping only.
    const scoped = JSON.parse((await catdoc(root, "validate", "--functor", "tests", "--format", "json")).stdout) as JsonReport;
    expect(scoped.warnings.map((w) => w.linkId)).toEqual(["tests/design-session"]);

    const reviewed = await catdoc(root, "review", "req-login-session", "req-session-audit", "designs/req-session");
    expect(reviewed).toMatchObject({ code: 0, stderr: "" });
    expect(reviewed.stdout).toMatch(/^req-login-session\s+morphism\s+req-login → req-session\s+suspect$/m);
    expect(reviewed.stdout).toContain("Reviewed 3 links; cleared through them: ");
    expect(await catdoc(root, "validate", "--strict")).toMatchObject({ code: 0 });
  });

  it("diff shows the changed document, its hashes and the links it makes suspect", async () => {
    const root = await writeTraceProject(await tempDir());
    await catdoc(root, "review", "--all");
    expect((await catdoc(root, "diff")).stdout).toBe("No document changed since the last review (15 links reviewed, 0 never reviewed).\n");
    await editDocument(root, "docs/req-audit.md");
    const table = await catdoc(root, "diff", "--stat");
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^DOCUMENT\s+PATH\s+REVIEWED\s+NOW\s+SUSPECT LINKS\s+THROUGH THEM$/);
    expect(lines[1]).toMatch(
      /^req-audit\s+docs\/req-audit\.md\s+sha256:[0-9a-f]{16}\s+sha256:[0-9a-f]{16}\s+req-session-audit, req-login-audit, designs\/req-audit\s+/,
    );
    expect(lines.at(-1)).toMatch(
      /^1 document changed since the last review: \d+ suspect links \(3 at the changed documents, \d+ through them;/,
    );
    const json = JSON.parse((await catdoc(root, "diff", "--format", "json")).stdout) as {
      changedDocuments: { objectId: string; reviewed: string[]; current: string }[];
      suspect: { id: string; via?: unknown }[];
    };
    expect(json.changedDocuments.map((d) => d.objectId)).toEqual(["req-audit"]);
    expect(json.changedDocuments[0]?.reviewed[0]).not.toBe(json.changedDocuments[0]?.current);
    expect(json.suspect.map((s) => s.id)).toContain("design-session-audit");
  });

  it("diff shows the text changed since the review (kept in .catdoc/reviewed/); a planted snapshot is not believed", async () => {
    const root = await writeTraceProject(await tempDir());
    await catdoc(root, "review", "--all");
    await editDocument(root, "docs/req-audit.md", "A new clause.\u001b[2J\n");
    const { stdout, code } = await catdoc(root, "diff");
    expect(code).toBe(0);
    const patch = stdout.slice(stdout.indexOf("\n===="));
    expect(patch).toContain("--- docs/req-audit.md reviewed sha256:");
    expect(patch).toContain("+++ docs/req-audit.md now sha256:");
    expect(patch).toMatch(/^ The system supports audit\.$/m);
    // The added line, with the terminal escape in the document neutralised.
    expect(patch).toMatch(/^\+A new clause\. \[2J$/m);
    expect(stdout).not.toContain("\u001b");
    const json = JSON.parse((await catdoc(root, "diff", "--format", "json")).stdout) as {
      changedDocuments: { objectId: string; diffs: { reviewed: string; patch: string | null }[] }[];
    };
    const diffs = json.changedDocuments[0]?.diffs ?? [];
    expect(diffs).toHaveLength(1);
    expect(diffs[0]?.patch).toContain("+A new clause.\u001b[2J");

    // A snapshot replaced by other text (a forger cannot make it hash to its name) is ignored: the diff says the text is not kept.
    const name = join(root, ".catdoc", "reviewed", `${diffs[0]?.reviewed.slice("sha256:".length)}.txt`);
    await writeFile(name, "# Requirement: audit\n\nNothing to see.\n");
    const planted = await catdoc(root, "diff");
    expect(planted.stdout).toContain("req-audit: the text reviewed as sha256:");
    expect(planted.stdout).toContain("is not kept");
    expect(planted.stdout).not.toContain("Nothing to see");
  });

  it("review by functor id: its links that need a review; none left → CONFLICT, nothing written", async () => {
    const root = await writeTraceProject(await tempDir());
    const first = await catdoc(root, "review", "designs");
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toContain("Reviewed 3 links.");
    expect(first.stdout).toMatch(/^designs\/req-login\s+mapping\s+req-login → design-login\s+unreviewed$/m);
    const bytes = await readFile(categoryFile(root));
    const again = await catdoc(root, "review", "designs");
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(again.stderr).toMatch(/^catdoc: Nothing to review in 'designs'/);
    expect(await readFile(categoryFile(root))).toEqual(bytes);
  });

  it("bad requests write nothing: usage errors exit 2, an unknown or a clean link exits 1 with one line", async () => {
    const root = await writeTraceProject(await tempDir());
    await catdoc(root, "review", "--all");
    await editDocument(root, "docs/req-login.md");
    const bytes = await readFile(categoryFile(root));
    const cases: [string[], number, RegExp][] = [
      [["review"], 2, /^catdoc: USAGE: give the link ids to review, or --all/],
      [["review", "--all", "req-login-session"], 2, /^catdoc: USAGE: give link ids or --all, not both/],
      [["review", "nope"], 1, /^catdoc: No link 'nope'/],
      [["review", "req-login-session", "tests/design-audit"], 1, /^catdoc: Link 'tests\/design-audit' is not suspect/],
      [["review", "tests/design-login"], 1, /^catdoc: Link 'tests\/design-login' is suspect only through 'designs\/req-login' \(functor\)/],
    ];
    for (const [args, code, pattern] of cases) {
      const result = await catdoc(root, ...args);
      expect(result.code, args.join(" ")).toBe(code);
      expect(result.stdout, args.join(" ")).toBe("");
      expect(result.stderr, args.join(" ")).toMatch(pattern);
      expect(result.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(await readFile(categoryFile(root)), args.join(" ")).toEqual(bytes);
    }
  });
});
