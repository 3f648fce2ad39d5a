/**
 * A small requirements → tests project for the authoring tests, written with comments, flow
 * stamps and a key order of its own, so a test can check an edit keeps what it does not touch.
 * The functor T maps both objects and the identities but not `refines` (req-a → req-b), whose
 * candidate images are the parallel arrows k1 and k2 (test-a → test-b).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeProject } from "./helpers.js";

export const AUTHORING_YAML = `# Authoring fixture: requirements and their tests
categories:
  - id: reqs # the requirements
    name: Requirements
    objects:
      - id: req-a
        title: Requirement A
        domain: requirements
        owner: alice # an unknown key, kept
      - id: req-b
        title: Requirement B
        domain: requirements
    morphisms:
      - id: id-req-a
        name: id_req-a
        source: req-a
        target: req-a
        metadata:
          isIdentity: true
      - id: id-req-b
        name: id_req-b
        source: req-b
        target: req-b
        metadata:
          isIdentity: true
      - id: refines # A is refined by B
        name: refines
        source: req-a
        target: req-b
  - id: tests
    name: Tests
    objects:
      - id: test-a
        title: Test A
        domain: tests
      - id: test-b
        title: Test B
        domain: tests
    morphisms:
      - id: id-test-a
        name: id_test-a
        source: test-a
        target: test-a
        metadata:
          isIdentity: true
      - id: id-test-b
        name: id_test-b
        source: test-b
        target: test-b
        metadata:
          isIdentity: true
      - id: k1
        name: checks
        source: test-a
        target: test-b
      - id: k2
        name: also checks
        source: test-a
        target: test-b
functors:
  - id: T # tested by
    name: tested by
    sourceCategory: reqs
    targetCategory: tests
    objectMapping:
      req-a: test-a
      req-b: test-b
    morphismMapping:
      id-req-a: id-test-a
      id-req-b: id-test-b
    reviewed:
      req-a: {source: "sha256:aa", target: "sha256:bb"}
naturalTransformations: []
`;

export async function writeAuthoringProject(root: string): Promise<string> {
  return writeProject(root, AUTHORING_YAML);
}

export function categoryText(root: string): Promise<string> {
  return readFile(join(root, ".catdoc", "category.yaml"), "utf8");
}

/** The text from the line starting with `from` up to (not including) the line starting with `to`. */
export function section(text: string, from: string, to?: string): string {
  const start = text.indexOf(from);
  const end = to === undefined ? text.length : text.indexOf(to, start + from.length);
  if (start < 0 || end < 0) throw new Error(`section ${from} … ${to ?? "end"} not found`);
  return text.slice(start, end);
}
