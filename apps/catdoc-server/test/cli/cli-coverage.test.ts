/**
 * `catdoc coverage` (exit 0, 1 under --fail-under, 2 for bad usage; table and JSON) and
 * `catdoc trace --reverse`, run in-process through runCli.
 */
import { describe, expect, it } from "vitest";
import { COVERAGE_YAML } from "../domain/coverage-fixture.js";
import { useTempDirs, writeProject } from "../domain/helpers.js";
import { runInProcess } from "./run-in-process.js";

const tempDir = useTempDirs();

const run = (args: string[], cwd: string) => runInProcess(args, cwd);

const project = async () => writeProject(await tempDir(), COVERAGE_YAML);

describe("catdoc coverage", () => {
  it("prints a row per functor, the objects not covered and the orphans, exit 0", async () => {
    const result = await run(["coverage"], await project());
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe(
      [
        "FUNCTOR  SOURCE → TARGET  OBJECTS  COVERED  TRIVIALLY  UNCOVERED  COVERAGE",
        "tested   reqs → tests     6        2        2          2          33.3%",
        "audited  tests → audits   4        1        1          2          25.0%",
        "broken   nowhere → tests  0        0        0          0          100.0%",
        "",
        "tested:",
        "  uncovered:         r5, r6",
        "  trivially covered: r2, r4",
        "audited:",
        "  uncovered:         t1, t3",
        "  trivially covered: t2",
        "",
        "orphans in reqs: r5",
        "orphans in tests: t3",
        "orphans in audits: x1",
        "",
      ].join("\n"),
    );
  });

  it("exits 1 when a functor covers less than --fail-under, 0 when none does; JSON says which failed", async () => {
    const root = await project();
    const failed = await run(["coverage", "--fail-under", "30"], root);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^FAILED \(--fail-under 30\): audited covers 25\.0%$/m);
    const passed = await run(["coverage", "--functor", "tested", "--fail-under", "33.3"], root);
    expect(passed.code).toBe(0);
    expect(passed.stdout).toMatch(/^COVERAGE OK: every functor covers at least 33.3% of its source objects$/m);
    const json = await run(["coverage", "--format", "json", "--fail-under", "50"], root);
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout) as { failUnder: number; failing: string[]; functors: { functorId: string; detail: unknown[] }[] };
    expect(body.failUnder).toBe(50);
    expect(body.failing).toEqual(["tested", "audited"]);
    expect(body.functors[0]?.detail).toHaveLength(6);
  });

  it("is bad usage (exit 2, one coded line) for an unknown functor or a bad percentage", async () => {
    const root = await project();
    const unknown = await run(["coverage", "--functor", "nope"], root);
    expect(unknown).toMatchObject({ code: 2, stdout: "" });
    expect(unknown.stderr).toMatch(/^catdoc: USAGE: unknown functor 'nope' \(list the functors with `catdoc list functors`\) — see .*\n$/);
    for (const bad of ["abc", "101", "-5"]) {
      const result = await run(["coverage", "--fail-under", bad], root);
      expect(result.code, bad).toBe(2);
      expect(result.stderr.split("\n")).toHaveLength(2);
      expect(result.stderr).toMatch(/^catdoc: USAGE: /);
    }
  });
});

describe("catdoc trace --reverse", () => {
  it("without a target: what leads to the object and what covers it", async () => {
    const root = await project();
    // The fixture's functor tested breaks a law on purpose (r5 ↦ no object): followed only with --include-invalid.
    expect((await run(["trace", "--reverse", "t2"], root)).stdout).toContain(
      "No functor maps an object onto t2.\nskipped functor tested: it fails validation (FUNCTOR_UNKNOWN_OBJECT); --include-invalid follows it\n",
    );
    const result = await run(["trace", "--reverse", "t2", "--include-invalid"], root);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe(
      [
        "What leads to t2 in category tests: 1 object, nearest first",
        "  t1, 1 step",
        "      --name-p (p)--> t2",
        "What covers t2: 2 objects, fewest functors first",
        "  r2  [reqs], 1 step",
        "      ==Tested by (tested)==> t2  [tests]",
        "  r3  [reqs], 1 step",
        "      ==Tested by (tested)==> t2  [tests]",
        "",
      ].join("\n"),
    );
    const json = JSON.parse(
      (await run(["trace", "--reverse", "x1", "--to-category", "reqs", "--format", "json", "--include-invalid"], root)).stdout,
    ) as {
      direction: string;
      coveredBy: { objectId: string; categoryId: string; path: { kind: string; id: string }[] }[];
    };
    expect(json.direction).toBe("backward");
    expect(json.coveredBy.map((e) => [e.objectId, e.categoryId, e.path.map((s) => s.id)])).toEqual([
      ["r2", "reqs", ["tested", "audited"]],
      ["r3", "reqs", ["tested", "audited"]],
    ]);
  });

  it("with a target: the paths from the target to the source, which the forward trace does not find", async () => {
    const root = await project();
    expect((await run(["trace", "x1", "r2"], root)).stdout).toMatch(/^No path from x1 to r2/);
    const result = await run(["trace", "--reverse", "x1", "r2", "--include-invalid"], root);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^r2 → x1 from category reqs to category audits: shortest path, 2 steps$/m);
    const json = JSON.parse((await run(["trace", "--reverse", "r3", "r4", "--format", "json"], root)).stdout) as {
      direction: string;
      found: boolean;
      shortestPathLength: number;
    };
    expect(json).toMatchObject({ direction: "backward", found: true, shortestPathLength: 3 });
  });

  it("is bad usage with --all and no target, or --to-category with a target; an unknown object fails (exit 1)", async () => {
    const root = await project();
    expect(await run(["trace", "--reverse", "t2", "--all"], root)).toMatchObject({ code: 2, stdout: "" });
    expect(await run(["trace", "--reverse", "t2", "t1", "--to-category", "reqs"], root)).toMatchObject({ code: 2, stdout: "" });
    expect(await run(["trace", "--reverse", "nope"], root)).toMatchObject({ code: 1, stderr: "catdoc: Object 'nope' not found\n" });
  });
});
