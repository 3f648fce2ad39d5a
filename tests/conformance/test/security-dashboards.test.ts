/**
 * Security review (issue #8, part 5), the two dashboards as their CLIs start them
 * (`catdoc dashboard --port 0`, `solo-assets dashboard --port 0`):
 *   - they listen on 127.0.0.1 only (kernel socket table; this machine's other addresses refused);
 *   - a foreign Host or Origin gets 403, on reads and changes alike;
 *   - no answer carries a CORS header, and no page, script or GET answer contains the token, so a
 *     page of another origin can neither read answers nor learn the token (it is handed over
 *     only in the URL printed on the terminal, in the fragment, which browsers never send);
 *   - solo: every change (DELETE a function, PUT settings, PUT/DELETE the API key, POST reindex)
 *     without the token, with a wrong one, with the token in the query string instead of the
 *     header, or with the token from a foreign Origin is refused with 403 and changes nothing;
 *     with the token from its own page it works;
 *   - catdoc: the dashboard has no change at all — every POST/PUT/DELETE/PATCH on every route
 *     leaves the project's files byte for byte as they were;
 *   - neither prints the token or the API key on stderr (debug level).
 * apps/*\/test/dashboard*.test.ts check the same guards in process and in a real browser.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { writeGeneratedProject } from "../../../apps/catdoc-server/src/testing/generate-project.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCli, type CliProcess } from "./support/cli-process.js";
import { corsHeaders, listeningAddresses, otherAddresses, rawRequest, tryConnect } from "./support/loopback-probe.js";
import { BASE_ENV, REPO_ROOT, SERVER_NODE } from "./support/servers.js";

const CATDOC_CLI = join(REPO_ROOT, "apps/catdoc-server/dist/cli.js");
const SOLO_CLI = join(REPO_ROOT, "apps/solo-assets-server/dist/cli.js");
const API_KEY = "AIzaSyDashboardSecurityKeyNotReal012345";
const FOREIGN = "http://evil.example";

/** Every file under `root` with its bytes, for "nothing changed" checks. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(root, path)] = readFileSync(path).toString("base64");
    }
  };
  walk(root);
  return files;
}

async function expectLoopbackOnly(port: number): Promise<void> {
  expect(listeningAddresses(port)).toEqual(["127.0.0.1"]);
  for (const address of otherAddresses()) expect(await tryConnect(address, port), `${address}:${port}`).not.toBe("connected");
}

describe("catdoc dashboard", () => {
  let dir: string;
  let cli: CliProcess;
  let port: number;
  const host = () => `127.0.0.1:${port}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "security-catdoc-dashboard-"));
    await writeGeneratedProject(dir, { objects: 12, morphisms: 30, functors: 2, seed: 5 });
    cli = await startCli(CATDOC_CLI, ["dashboard", "--port", "0", "--project", dir], {
      env: { ...BASE_ENV, LOCAL_MCP_LOG_LEVEL: "debug" },
      cwd: dir,
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)\//,
    });
    port = Number(cli.match[1]);
  });

  afterAll(async () => {
    await cli?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("listens on 127.0.0.1 and nowhere else", async () => {
    await expectLoopbackOnly(port);
  });

  it("refuses a foreign Host or Origin with 403 and sends no CORS header", async () => {
    const refused: Record<string, string>[] = [
      { host: `evil.example:${port}` },
      { host: host(), origin: FOREIGN },
      { host: host(), origin: "null" },
    ];
    for (const headers of refused) {
      for (const path of ["/", "/api/objects", "/api/health"]) {
        const answer = await rawRequest(port, { path, headers });
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(corsHeaders(answer)).toEqual([]);
      }
    }
    const preflight = await rawRequest(port, {
      method: "OPTIONS",
      path: "/api/validate",
      headers: { host: host(), origin: FOREIGN, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(corsHeaders(preflight)).toEqual([]);
    const own = await rawRequest(port, { path: "/api/objects", headers: { host: host() } });
    expect(own.status).toBe(200);
    expect(corsHeaders(own)).toEqual([]);
  });

  it("has no request that changes the project: every POST, PUT, DELETE and PATCH leaves its files as they were", async () => {
    const before = snapshot(dir);
    const objects = JSON.parse((await rawRequest(port, { path: "/api/objects", headers: { host: host() } })).body) as {
      objects: { id: string }[];
    };
    const id = objects.objects[0]?.id ?? "x";
    const paths = [
      "/",
      "/app.js",
      "/api",
      "/api/health",
      "/api/objects",
      `/api/objects/${id}`,
      "/api/morphisms",
      "/api/categories",
      "/api/functors",
      "/api/graph",
      "/api/validate",
      "/api/trace",
      "/api/import",
      "/api/init",
    ];
    const statuses = new Set<number>();
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      for (const path of paths) {
        const body = JSON.stringify({ id: "injected", title: "Injected", force: true, paths: ["."], source: id, target: id });
        const answer = await rawRequest(port, { method, path, headers: { host: host(), "content-type": "application/json" }, body });
        statuses.add(answer.status);
        // Only the two read-only POST routes of the original dashboard answer 200.
        if (answer.status === 200) expect(`${method} ${path}`).toMatch(/^POST \/api\/(validate|trace)$/);
      }
    }
    expect([...statuses].every((s) => [200, 400, 404, 405].includes(s))).toBe(true);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("solo-assets dashboard", () => {
  let dir: string;
  let env: Record<string, string>;
  let cli: CliProcess;
  let port: number;
  let token: string;
  const keyFile = () => join(dir, "library.gemini-key");
  const settingsFile = () => join(dir, "library.settings.json");
  const host = () => `127.0.0.1:${port}`;
  const json = { "content-type": "application/json" };

  /** Every change the dashboard offers, with a body it accepts. */
  const CHANGES: { method: string; path: string; body?: string }[] = [
    { method: "DELETE", path: "/api/functions/double" },
    { method: "PUT", path: "/api/settings", body: JSON.stringify({ critic: "off", embedding_model: "injected" }) },
    { method: "PUT", path: "/api/settings/api-key", body: JSON.stringify({ key: "AIzaSyInjectedByAnotherOrigin000000000000" }) },
    { method: "DELETE", path: "/api/settings/api-key" },
    { method: "POST", path: "/api/reindex" },
  ];

  const functionCount = async () => {
    const answer = await rawRequest(port, { path: "/api/functions", headers: { host: host() } });
    return (JSON.parse(answer.body) as { total: number }).total;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "security-solo-dashboard-"));
    env = {
      ...BASE_ENV,
      LOCAL_MCP_LOG_LEVEL: "debug",
      SOLO_DB_PATH: join(dir, "library.duckdb"),
      SOLO_ENVS_DIR: join(dir, "envs"),
      SOLO_EMBEDDER: "local",
      SOLO_CRITIC: "off",
    };
    const source = join(dir, "double.py");
    writeFileSync(source, 'def double(x: int) -> int:\n    """Twice x."""\n    return 2 * x\n');
    execFileSync(SERVER_NODE, [SOLO_CLI, "save", source, "--name", "double", "--description", "Double a number", "--skip-tests"], {
      env: { ...process.env, ...env },
      stdio: "pipe",
    });
    cli = await startCli(SOLO_CLI, ["dashboard", "--port", "0"], {
      env,
      cwd: dir,
      ready: /http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]+)/,
    });
    port = Number(cli.match[1]);
    token = cli.match[2] ?? "";
  });

  afterAll(async () => {
    await cli?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("listens on 127.0.0.1 and nowhere else", async () => {
    await expectLoopbackOnly(port);
  });

  it("refuses every change without the token, with a wrong one, or with it in the query string — nothing changes", async () => {
    expect(token.length).toBeGreaterThanOrEqual(24);
    expect(await functionCount()).toBe(1);
    const attempts: Record<string, string>[] = [
      {},
      { "x-solo-token": "" },
      { "x-solo-token": "wrong" },
      { "x-solo-token": `${token}x` },
      { "x-solo-token": token.slice(0, -1) },
      { authorization: `Bearer ${token}` },
    ];
    for (const change of CHANGES) {
      for (const headers of attempts) {
        const answer = await rawRequest(port, {
          method: change.method,
          path: change.path,
          headers: { host: host(), ...json, ...headers },
          body: change.body,
        });
        expect(answer.status, `${change.method} ${change.path} ${JSON.stringify(headers)}`).toBe(403);
        expect(corsHeaders(answer)).toEqual([]);
      }
      const inQuery = await rawRequest(port, {
        method: change.method,
        path: `${change.path}?token=${token}`,
        headers: { host: host(), ...json },
        body: change.body,
      });
      expect(inQuery.status).toBe(403);
    }
    expect(await functionCount()).toBe(1);
    expect(existsSync(settingsFile())).toBe(false);
    expect(existsSync(keyFile())).toBe(false);
  });

  it("refuses every change with the right token from a foreign Origin or Host (a page elsewhere, DNS rebinding)", async () => {
    for (const change of CHANGES) {
      const refused: Record<string, string>[] = [
        { host: host(), origin: FOREIGN },
        { host: host(), origin: "null" },
        { host: `evil.example:${port}` },
      ];
      for (const headers of refused) {
        const answer = await rawRequest(port, {
          method: change.method,
          path: change.path,
          headers: { ...json, "x-solo-token": token, ...headers },
          body: change.body,
        });
        expect(answer.status, `${change.method} ${change.path} ${JSON.stringify(headers)}`).toBe(403);
        expect(corsHeaders(answer)).toEqual([]);
      }
    }
    expect(await functionCount()).toBe(1);
    expect(existsSync(settingsFile())).toBe(false);
    expect(existsSync(keyFile())).toBe(false);
  });

  it("accepts a change with the token from its own origin; the key is stored 0600 and never returned", async () => {
    const put = await rawRequest(port, {
      method: "PUT",
      path: "/api/settings/api-key",
      headers: { host: host(), origin: `http://127.0.0.1:${port}`, ...json, "x-solo-token": token },
      body: JSON.stringify({ key: API_KEY }),
    });
    expect(put.status).toBe(200);
    expect(put.body).not.toContain(API_KEY);
    expect(readFileSync(keyFile(), "utf8").trim()).toBe(API_KEY);
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    // Removing it still needs the token.
    expect((await rawRequest(port, { method: "DELETE", path: "/api/settings/api-key", headers: { host: host() } })).status).toBe(403);
    expect(readFileSync(keyFile(), "utf8").trim()).toBe(API_KEY);
  });

  it("hands the token to no one: no page, script or GET answer holds it or the key, and no answer carries a CORS header", async () => {
    const gets = [
      "/",
      "/app.js",
      "/app.css",
      "/api/status",
      "/api/functions",
      "/api/functions/double",
      "/api/functions/double/versions/1",
      "/api/settings",
    ];
    for (const path of gets) {
      const answer = await rawRequest(port, { path, headers: { host: host() } });
      expect(answer.status, path).toBe(200);
      expect(answer.body).not.toContain(token);
      expect(answer.body).not.toContain(API_KEY);
      expect(corsHeaders(answer)).toEqual([]);
    }
    const preflight = await rawRequest(port, {
      method: "OPTIONS",
      path: "/api/functions/double",
      headers: {
        host: host(),
        origin: FOREIGN,
        "access-control-request-method": "DELETE",
        "access-control-request-headers": "x-solo-token",
      },
    });
    expect(preflight.status).toBe(403);
    expect(corsHeaders(preflight)).toEqual([]);
  });

  it("prints the token only in the URL on stdout, and neither the token nor the key on stderr", () => {
    expect(cli.stdout()).toContain(`#token=${token}`);
    expect(cli.stderr()).not.toContain(token);
    expect(cli.stderr()).not.toContain(API_KEY);
    expect(cli.stdout()).not.toContain(API_KEY);
  });
});
