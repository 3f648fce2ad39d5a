/** The fixtures' layout and the check that finds writes which escaped the served root. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { linkOut, makeSandbox, writesOutside } from "../src/targets/sandbox.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

it("finds files written outside the root, and a changed sentinel, but not files inside", async () => {
  const dir = await mkdtemp(join(tmpdir(), "fuzz-sandbox-"));
  dirs.push(dir);
  const sandbox = await makeSandbox(dir);
  await linkOut(sandbox, "link-dir", "dir");
  await writeFile(join(sandbox.root, "inside.md"), "fine");
  expect(await writesOutside(dir, sandbox)).toEqual([]);
  await writeFile(join(sandbox.root, "link-dir", "new.md"), "escaped");
  await writeFile(join(dir, "d1", "d2", "d3", "escape.md"), "escaped");
  await writeFile(join(sandbox.outside, "secret.md"), "overwritten");
  expect((await writesOutside(dir, sandbox)).sort()).toEqual(
    [join(sandbox.outside, "new.md"), `${join(sandbox.outside, "secret.md")} (changed)`, join(dir, "d1", "d2", "d3", "escape.md")].sort(),
  );
});
