/**
 * A small requirements → tests project for the export tests, with hostile titles: requirements
 * login, session, audit (login → session → audit) and tests login, session (login → session);
 * the functor `tests` maps login and session, maps login → session to its test arrow and
 * session → audit to an identity (session is trivially covered), and leaves audit unmapped
 * (uncovered). req-login's title is markup, req-audit's a spreadsheet formula with a comma, a
 * quote and a line break. Requirements are files under docs/.
 */
import { writeProject } from "../domain/helpers.js";

export const HOSTILE_TITLE = '<script>alert("x")</script> & co';
export const FORMULA_TITLE = '=HYPERLINK("http://evil", "a, b")\nsecond line';

const identity = (object: string) =>
  `      - {id: id-${object}, name: id, source: ${object}, target: ${object}, metadata: {isIdentity: true}}\n`;

export const EXPORT_YAML =
  "categories:\n" +
  "  - id: requirements\n    name: Requirements\n    objects:\n" +
  `      - {id: req-login, title: ${JSON.stringify(HOSTILE_TITLE)}, domain: requirements, metadata: {path: docs/req-login.md}}\n` +
  "      - {id: req-session, title: Session, domain: requirements, metadata: {path: docs/req-session.md}}\n" +
  `      - {id: req-audit, title: ${JSON.stringify(FORMULA_TITLE)}, domain: requirements, metadata: {path: docs/req-audit.md}}\n` +
  "    morphisms:\n" +
  identity("req-login") +
  identity("req-session") +
  identity("req-audit") +
  "      - {id: req-login-session, name: requires, source: req-login, target: req-session}\n" +
  "      - {id: req-session-audit, name: requires, source: req-session, target: req-audit}\n" +
  "  - id: tests\n    name: Tests\n    objects:\n" +
  '      - {id: test-login, title: Login test, domain: tests, content: "Checks login."}\n' +
  '      - {id: test-session, title: Session test, domain: tests, content: "Checks sessions."}\n' +
  "    morphisms:\n" +
  identity("test-login") +
  identity("test-session") +
  "      - {id: test-login-session, name: requires, source: test-login, target: test-session}\n" +
  "functors:\n" +
  "  - id: tests\n    name: Tested by\n    sourceCategory: requirements\n    targetCategory: tests\n" +
  "    objectMapping: {req-login: test-login, req-session: test-session}\n" +
  "    morphismMapping: {req-login-session: test-login-session, req-session-audit: id-test-session, id-req-login: id-test-login, id-req-session: id-test-session}\n" +
  "naturalTransformations: []\n";

export function writeExportProject(root: string): Promise<string> {
  return writeProject(root, EXPORT_YAML, {
    files: {
      "docs/req-login.md": "# Login\n\nUsers log in <b>safely</b>.\n",
      "docs/req-session.md": "# Session\n\nSessions expire.\n",
      "docs/req-audit.md": "# Audit\n\nEvery login is audited.\n",
    },
  });
}
