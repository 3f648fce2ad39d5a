// Sums the vitest JSON reports of every package (packages/*, apps/*, tests/*: test-results/vitest.json) into one line:
// "N passed, N failed". A package with no report, or a failed run with no failed test (a file that
// did not load), counts as one failure so nothing is silently skipped.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
let passed = 0;
let failed = 0;
const notes = [];
for (const group of ["packages", "apps", "tests"]) {
  if (!existsSync(join(root, group))) continue;
  for (const name of readdirSync(join(root, group))) {
    const dir = join(root, group, name);
    if (!existsSync(join(dir, "package.json"))) continue;
    const report = join(dir, "test-results", "vitest.json");
    if (!existsSync(report)) {
      failed += 1;
      notes.push(`${group}/${name}: no test report (tests did not run)`);
      continue;
    }
    const r = JSON.parse(readFileSync(report, "utf8"));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    if (!r.success && r.numFailedTests === 0) {
      failed += 1;
      notes.push(`${group}/${name}: the run failed outside any test (a file did not load?)`);
    }
    if (r.numTotalTests === 0) notes.push(`${group}/${name}: ran no test`);
  }
}
for (const note of notes) console.error(note);
console.log(`${passed} passed, ${failed} failed`);
