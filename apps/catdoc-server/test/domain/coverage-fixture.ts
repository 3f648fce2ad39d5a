/**
 * A small requirements → tests project for coverage and backward trace: functor `tested` is
 * partial (it does not validate) and covers each kind of object once or twice.
 *
 * reqs: r1 -a-> r2 -b-> r3, r4 -c-> r1, r6 -d-> r3, r5 alone.
 * tests: t1 -p-> t2, t3 alone; t2 -q-> t4.
 * tested (reqs → tests): r1 ↦ t1, r2 ↦ t2, r3 ↦ t2, r4 ↦ t1, r5 ↦ ghost (no such test), r6 unmapped;
 * a ↦ p (kept), b ↦ id-t2 (collapsed), c and d unmapped.
 * audited (tests → audits): t2 ↦ x1, t4 ↦ x1; so x1 is covered by t2 and t4, and through them by r2, r3.
 */
import { indexProject, parseCategoryYaml } from "../../src/domain/index.js";
import type { ProjectIndex } from "../../src/domain/index.js";

function category(id: string, objects: string[], arrows: [string, string, string][]): string[] {
  return [
    `  - id: ${id}`,
    `    name: ${id}`,
    "    objects:",
    ...objects.map((o) => `      - { id: ${o}, title: Title ${o}, domain: test }`),
    "    morphisms:",
    ...arrows.map(([m, s, t]) => `      - { id: ${m}, name: name-${m}, source: ${s}, target: ${t} }`),
    ...objects.map((o) => `      - { id: id-${o}, name: id_${o}, source: ${o}, target: ${o}, metadata: { isIdentity: true } }`),
  ];
}

export const COVERAGE_YAML = [
  "categories:",
  ...category(
    "reqs",
    ["r1", "r2", "r3", "r4", "r5", "r6"],
    [
      ["a", "r1", "r2"],
      ["b", "r2", "r3"],
      ["c", "r4", "r1"],
      ["d", "r6", "r3"],
    ],
  ),
  ...category(
    "tests",
    ["t1", "t2", "t3", "t4"],
    [
      ["p", "t1", "t2"],
      ["q", "t2", "t4"],
    ],
  ),
  ...category("audits", ["x1"], []),
  "functors:",
  "  - id: tested",
  "    name: Tested by",
  "    sourceCategory: reqs",
  "    targetCategory: tests",
  "    objectMapping: { r1: t1, r2: t2, r3: t2, r4: t1, r5: ghost }",
  "    morphismMapping: { a: p, b: id-t2, id-r1: id-t1, id-r2: id-t2, id-r3: id-t2, id-r4: id-t1 }",
  "  - id: audited",
  "    name: Audited by",
  "    sourceCategory: tests",
  "    targetCategory: audits",
  "    objectMapping: { t2: x1, t4: x1 }",
  "    morphismMapping: { q: id-x1 }",
  "  - id: broken",
  "    name: From nowhere",
  "    sourceCategory: nowhere",
  "    targetCategory: tests",
  "    objectMapping: { n1: t1 }",
].join("\n");

export function coverageIndex(): ProjectIndex {
  return indexProject(parseCategoryYaml(COVERAGE_YAML));
}
