import { isTestPath, testLocation, testNamingScheme } from "../analysis/test-files.js";
import type { FileFacts } from "../analysis/source-facts.js";
import type { Convention } from "./catalog-schema.js";
import { Counter, formatTop, percent } from "./counting.js";

/** Test layout: where tests live, how they are named, which framework runs them. */
export function testsConvention(facts: readonly FileFacts[]): Convention {
  const tests = facts.filter((f) => isTestPath(f.path));
  const locations = new Counter();
  const schemes = new Counter();
  const frameworks = new Counter();
  const directories = new Counter();
  for (const file of tests) {
    locations.add(testLocation(file.path));
    schemes.add(testNamingScheme(file.path) ?? "(helpers: other files in test directories)");
    if (file.testFramework) frameworks.add(file.testFramework);
    const dir = /^(.*?(?:^|\/)(?:test|tests|__tests__|spec|specs))\//.exec(file.path)?.[1];
    directories.add(dir ?? (file.path.includes("/") ? file.path.slice(0, file.path.lastIndexOf("/")) : "(root)"));
  }
  const sources = facts.length - tests.length;
  const rules: string[] = [];
  if (tests.length === 0) {
    rules.push("No test files were found (test directories or *.test.*, *.spec.*, test_*.py, *_test.go, *Test.java names)");
  } else {
    const [location, locationCount] = locations.top(1)[0] as [string, number];
    rules.push(
      location === "test-directory"
        ? `Tests live in separate test directories (${locationCount} of ${tests.length}): ${formatTop(directories.top(5))}`
        : `Tests sit next to the code they test (${locationCount} of ${tests.length})`,
    );
    rules.push(`Test files are named ${formatTop(schemes.top(4))}`);
    if (frameworks.size > 0) rules.push(`Framework: ${formatTop(frameworks.top(4))}`);
    rules.push(`${tests.length} test files for ${sources} other code files (${percent(tests.length, sources)})`);
  }
  const framework = frameworks.top(1)[0]?.[0];
  const scheme = schemes.top(1)[0]?.[0];
  return {
    name: "tests",
    title: "Test layout",
    summary:
      tests.length === 0
        ? "No tests were found."
        : `${tests.length} test files, mostly ${locations.top(1)[0]?.[0] === "test-directory" ? "in test directories" : "next to the code"}, named ${scheme}${framework ? `, run with ${framework}` : ""}.`,
    rules,
    details: {
      testFiles: tests.length,
      otherFiles: sources,
      locations: locations.toRecord(),
      naming: schemes.toRecord(),
      frameworks: frameworks.toRecord(),
      directories: Object.fromEntries(directories.top(10)),
    },
  };
}
