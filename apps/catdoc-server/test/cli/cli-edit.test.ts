/** `catdoc add|update|rm|rename|map`, in-process (run-in-process.ts): authoring from the command line. */
import { describe, expect, it } from "vitest";
import { AUTHORING_YAML, categoryText, writeAuthoringProject } from "../domain/authoring-fixture.js";
import { useTempDirs } from "../domain/helpers.js";
import { runInProcess } from "./run-in-process.js";

const tempDir = useTempDirs();

describe("catdoc add, update, rm, rename, map", () => {
  it("authors a design category and a functor into it, then renames and removes, printing one line per change", async () => {
    const root = await writeAuthoringProject(await tempDir());
    const run = (...args: string[]) => runInProcess(args, root);

    expect(await run("add", "category", "design", "--name", "Design")).toEqual({
      code: 0,
      stdout: "add category 'design'\n1 change written to .catdoc/category.yaml\n",
      stderr: "",
    });
    expect((await run("add", "object", "des-a", "--category", "design", "--title", "Design A", "--domain", "design")).stdout).toBe(
      "add object 'des-a' to category 'design'\nadd identity 'id-des-a' to category 'design'\n2 changes written to .catdoc/category.yaml\n",
    );
    await run("add", "object", "des-b", "--category", "design", "--title", "Design B", "--domain", "design", "--meta", "owner=bob");
    await run("add", "morphism", "d1", "--category", "design", "--name", "refines", "--source", "des-a", "--target", "des-b");
    await run("add", "functor", "D", "--name", "designed by", "--source-category", "reqs", "--target-category", "design");
    await run("map", "functor", "D", "req-a", "des-a");
    const mapped = await run("map", "functor", "D", "req-b", "des-b");
    expect(mapped.stdout).toContain("open: Functor 'D' does not map morphism 'refines' of category 'reqs'; candidate image: 'd1'\n");
    for (const from of ["id-req-a", "id-req-b", "refines"]) expect((await run("map", "functor", "D", from)).code).toBe(0);
    // T's own gap (refines, unmapped in the fixture) remains; D has none left.
    const validated = await run("validate");
    expect(validated.stdout).toContain("functor=T");
    expect(validated.stdout).not.toContain("functor=D");

    expect((await run("update", "object", "des-b", "--title", "Design B, revised", "--meta", "owner=")).stdout).toBe(
      "update object 'des-b' (title, metadata)\n1 change written to .catdoc/category.yaml\n",
    );
    // Inline content set, then removed with --content ''.
    await run("update", "object", "des-b", "--content", "Inline design text.");
    expect(await categoryText(root)).toContain("Inline design text.");
    expect((await run("update", "object", "des-b", "--content", "")).code).toBe(0);
    expect(await categoryText(root)).not.toContain("Inline design text.");
    expect(await categoryText(root)).not.toMatch(/content: (null|''|"")/);
    const dry = await run("rename", "object", "des-a", "des-login", "--dry-run", "--format", "json");
    expect(JSON.parse(dry.stdout)).toMatchObject({
      written: false,
      dryRun: true,
      ids: ["des-a", "des-login", "design", "id-des-a", "id-des-login"],
    });
    expect(await categoryText(root)).toContain("des-a");
    await run("rename", "object", "des-a", "des-login");
    const saved = await categoryText(root);
    expect(saved).not.toMatch(/des-a\b/);
    expect(saved).toContain("    objectMapping:\n      req-a: des-login\n      req-b: des-b\n");

    const refused = await run("rm", "category", "design");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^catdoc: Category 'design' still holds or is used by object 'des-login', object 'des-b', functor 'D'; .*\n$/,
    );
    expect((await run("rm", "category", "design", "--cascade")).code).toBe(0);
    expect(await categoryText(root)).toBe(AUTHORING_YAML);
  });

  it("refuses a law violation (exit 1, one line, nothing written) and saves it with --force", async () => {
    const root = await writeAuthoringProject(await tempDir());
    const refused = await runInProcess(["map", "functor", "T", "req-b", "test-a"], root);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/^catdoc: The edit would break a law: FUNCTOR_MORPHISM_MISMATCH: .*Nothing was written\.\n$/);
    const candidate = await runInProcess(["map", "functor", "T", "refines", "id-test-b"], root);
    expect(candidate.stderr).toMatch(
      /^catdoc: 'id-test-b' is not a candidate image of 'refines' under functor 'T': the candidates are 'k1', 'k2' /,
    );
    const exists = await runInProcess(["rename", "morphism", "k1", "k2"], root);
    expect(exists).toMatchObject({ code: 1, stderr: "catdoc: Morphism 'k2' already exists in category 'tests'\n" });
    const unknown = await runInProcess(["update", "object", "nope", "--title", "x"], root);
    expect(unknown).toMatchObject({ code: 1, stderr: "catdoc: Object 'nope' not found\n" });
    expect(await categoryText(root)).toBe(AUTHORING_YAML);

    const forced = await runInProcess(["map", "functor", "T", "req-b", "test-a", "--force"], root);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^map 'req-b' → 'test-a' in functor 'T'\nlaw broken \(saved with --force\): FUNCTOR_MORPHISM_MISMATCH: /);
  });

  it("bad usage is one coded line and exit 2: an unknown kind, a field the kind lacks, no field to update, --remove with a target", async () => {
    const root = await writeAuthoringProject(await tempDir());
    const cases = [
      ["add", "widget", "w"],
      ["add", "category", "c", "--title", "T"],
      ["add", "object", "o", "--category", "tests", "--title", "T"],
      ["update", "object", "req-a"],
      ["map", "functor", "T", "req-a", "test-a", "--remove"],
      ["map", "object", "req-a", "x"],
      ["rename", "object", "req-a"],
    ];
    for (const args of cases) {
      const result = await runInProcess(args, root);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(/^catdoc: USAGE: [^\n]+\n$/);
    }
    expect((await runInProcess(["add", "category", "c", "--title", "T"], root)).stderr).toContain("A category has no field 'title' to add");
    expect(await categoryText(root)).toBe(AUTHORING_YAML);
  });

  it("--help tells what each command does and how", async () => {
    const root = await tempDir();
    const help = await runInProcess(["--help"], root);
    for (const command of ["add", "update", "rm", "rename", "map"]) expect(help.stdout).toMatch(new RegExp(`\\n  ${command} `));
    const map = await runInProcess(["map", "--help"], root);
    expect(map.code).toBe(0);
    expect(map.stdout).toContain("Usage: catdoc map [options] <kind> <id> <from> [to]");
    expect(map.stdout).toContain("candidate image");
    expect((await runInProcess(["add", "--help"], root)).stdout).toContain("--force");
  });
});
