/**
 * The servers under attack, as the cross-server tests start them (one table, shared with
 * tests/conformance): the built entries, the Node that runs them and a fresh state per run.
 */
export { BASE_ENV, REPO_ROOT, SERVERS, SERVER_NODE, type ServerUnderTest } from "../../../conformance/test/support/servers.js";
