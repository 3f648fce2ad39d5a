/** Where a test lives, judged from its path alone. */
export type TestLocation = "test-directory" | "co-located";

const TEST_DIRECTORY = /(?:^|\/)(?:test|tests|__tests__|spec|specs)\//;
const TEST_NAME = /(?:\.(?:test|spec)\.[cm]?[jt]sx?$)|(?:(?:^|\/)test_[^/]*\.py$)|(?:_test\.(?:py|go)$)|(?:Tests?\.(?:java|cs)$)/;

/** Test files: under a test directory, or named like a test (`*.test.ts`, `test_*.py`, `*_test.go`, `*Test.java`, `*Tests.cs`). */
export function isTestPath(path: string): boolean {
  return TEST_DIRECTORY.test(path) || TEST_NAME.test(path);
}

export function testLocation(path: string): TestLocation {
  return TEST_DIRECTORY.test(path) ? "test-directory" : "co-located";
}

/** `foo.test.ts` → `*.test.ts`, `test_foo.py` → `test_*.py`; undefined for a file named like no test (a helper in a test directory). */
export function testNamingScheme(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const js = /\.(test|spec)\.([cm]?[jt]sx?)$/.exec(base);
  if (js) return `*.${js[1]}.${js[2]}`;
  if (/^test_.*\.py$/.test(base)) return "test_*.py";
  if (/_test\.py$/.test(base)) return "*_test.py";
  if (/_test\.go$/.test(base)) return "*_test.go";
  if (/Tests?\.java$/.test(base)) return base.endsWith("Tests.java") ? "*Tests.java" : "*Test.java";
  if (/Tests?\.cs$/.test(base)) return base.endsWith("Tests.cs") ? "*Tests.cs" : "*Test.cs";
  return undefined;
}

/** Test frameworks recognised from imports. */
const FRAMEWORK_BY_IMPORT: ReadonlyArray<readonly [RegExp, string]> = [
  [/^vitest(?:\/|$)/, "vitest"],
  [/^(?:@jest\/globals|jest)$/, "jest"],
  [/^mocha$/, "mocha"],
  [/^node:test$/, "node:test"],
  [/^ava$/, "ava"],
  [/^bun:test$/, "bun:test"],
  [/^pytest$/, "pytest"],
  [/^unittest(?:\.|$)/, "unittest"],
  [/^testing$/, "go testing"],
  [/^org\.junit/, "junit"],
  [/^Xunit(?:\.|$)/, "xunit"],
  [/^NUnit\.Framework(?:\.|$)/, "nunit"],
  [/^Microsoft\.VisualStudio\.TestTools\.UnitTesting(?:\.|$)/, "mstest"],
];

export function frameworkFromImports(specifiers: readonly string[]): string | undefined {
  for (const [pattern, name] of FRAMEWORK_BY_IMPORT) {
    if (specifiers.some((s) => pattern.test(s))) return name;
  }
  return undefined;
}
