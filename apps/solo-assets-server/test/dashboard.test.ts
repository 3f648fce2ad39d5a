/**
 * The dashboard in real headless Chromium (playwright-core with Debian's chromium): status with
 * the processes using the library, the function explorer (filter, detail with code, gate results
 * and history, delete), settings with the API key kept in a 0600 file and never shown again —
 * and the loopback, Origin and token checks from outside the browser.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { silentLogger } from "@local-mcp/core";
import { spawnStdioServer } from "@local-mcp/core/testing";
import type { SpawnedStdioServer } from "@local-mcp/core/testing";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDashboard } from "../src/dashboard/dashboard-server.js";
import type { DashboardHandle } from "../src/dashboard/dashboard-server.js";
import type { SoloServices } from "../src/services.js";
import { commitUnchecked } from "./helpers/unchecked-save.js";
import { tempLibrary, testEnv, testServices } from "./helpers/test-library.js";
import type { TempLibrary } from "./helpers/test-library.js";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const TOKEN = "dashboard-test-token-0123456789";
const API_KEY = "AIzaSyDashboardTestKeyNotReal-012345678";
const MCP = fileURLToPath(new URL("../dist/mcp.js", import.meta.url));
/** No SOLO_EMBEDDER/SOLO_CRITIC: the dashboard's settings decide. */
const NO_OVERRIDES = { SOLO_EMBEDDER: undefined, SOLO_CRITIC: undefined };

let library: TempLibrary;
let services: SoloServices;
let dashboard: DashboardHandle;
let mcp: SpawnedStdioServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  library = tempLibrary();
  services = testServices(library.dbPath, NO_OVERRIDES);
  const signal = new AbortController().signal;
  const code = 'def mean(values: list[float]) -> float:\n    """The arithmetic mean of values."""\n    return sum(values) / len(values)\n';
  await services.library.save(
    {
      name: "mean",
      code: `import os\n${code}`,
      description: "Arithmetic mean of numbers",
      tags: ["math"],
      dependencies: [],
      testCases: [{ input: { values: [1, 2, 3] }, expected: 2 }],
      skipTests: false,
    },
    { signal },
  );
  await services.library.save(
    {
      name: "mean",
      code,
      description: "Arithmetic mean of numbers",
      tags: ["math"],
      dependencies: [],
      testCases: [{ input: { values: [1, 2, 3] }, expected: 2 }],
      skipTests: false,
    },
    { signal },
  );
  await commitUnchecked(services, {
    name: "count_words",
    code: "def count_words(text: str) -> int:\n    return len(text.split())\n",
    description: "Count the words in a text",
    tags: ["text"],
  });
  await commitUnchecked(services, {
    name: "shout",
    code: "def shout(text: str) -> str:\n    return text.upper()\n",
    description: "Upper-case a text",
    tags: ["text"],
  });
  mcp = await spawnStdioServer({ command: process.execPath, args: [MCP], env: testEnv(library.dbPath), readyTimeoutMs: 30_000 });
  dashboard = await startDashboard({
    openServices: () => testServices(library.dbPath, NO_OVERRIDES),
    port: 0,
    token: TOKEN,
    version: "test",
    logger: silentLogger,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await mcp?.close();
  await services?.dispose();
  library?.remove();
});

function raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: dashboard.port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the dashboard in Chromium", () => {
  it("shows the status: database, counts, and the processes using the library", async () => {
    await page.goto(dashboard.urlWithToken);
    // The first status answer waits for the gate's tool probe (linters, bubblewrap, the cgroup
    // limiter, the interpreter's prefix): seconds on a busy machine, beyond the poll's default 1 s.
    await expect.poll(() => page.textContent("#status-db"), { timeout: 30_000 }).toBe(library.dbPath);
    expect(await page.textContent("#status-functions")).toBe("3");
    expect(await page.textContent("#status-active")).toBe("1");
    expect(await page.textContent("#status-unverified")).toBe("2");
    expect(await page.textContent("#status-versions")).toBe("4");
    const processes = await page.$$eval("#status-processes tr", (rows) =>
      rows.map((row) => Array.from(row.children as ArrayLike<{ textContent: string | null }>, (cell) => cell.textContent)),
    );
    expect(processes).toEqual(
      expect.arrayContaining([
        expect.arrayContaining([String(mcp.child.pid), "mcp"]),
        expect.arrayContaining([String(process.pid), "dashboard"]),
      ]),
    );
    expect(page.url()).not.toContain(TOKEN);
    expect(await page.textContent("#token-state")).toBe("changes enabled");
  });

  it("lists and filters functions and shows code, gate results and history", async () => {
    await page.click("#tab-functions");
    await expect.poll(() => page.locator("#function-rows tr").count()).toBe(3);
    await page.fill("#filter-text", "words");
    await page.click("#filter-form button[type=submit]");
    await expect.poll(() => page.locator("#function-rows tr").count()).toBe(1);
    await page.fill("#filter-text", "");
    await page.selectOption("#filter-status", "active");
    await expect.poll(() => page.locator("#function-rows tr").count()).toBe(1);
    await page.click('#function-rows tr[data-name="mean"]');
    await expect.poll(() => page.textContent("#detail-name")).toBe("mean");
    expect(await page.textContent("#detail-code")).toContain("return sum(values) / len(values)");
    const gate = await page.$$eval("#detail-gate tr", (rows) =>
      rows.map((row) => `${row.children[0]?.textContent}:${row.children[1]?.textContent}`),
    );
    expect(gate).toEqual(["lint:passed", "type:passed", "test:passed", "critic:skipped"]);
    await expect.poll(() => page.locator("#detail-history tr").count()).toBe(2);
    // Version 1 was rejected (an unused import): its detail shows why.
    await page.click("#detail-history tr:nth-child(2)");
    await expect.poll(() => page.isVisible("#detail-rejection")).toBe(true);
    expect(await page.textContent("#detail-rejection")).toContain("F401");
  });

  it("deletes a function after confirmation", async () => {
    await page.selectOption("#filter-status", "");
    await expect.poll(() => page.locator("#function-rows tr").count()).toBe(3);
    await page.click('#function-rows tr[data-name="shout"]');
    await expect.poll(() => page.textContent("#detail-name")).toBe("shout");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.click("#delete-button");
    await expect.poll(() => page.textContent("#message")).toContain("Deleted shout");
    await expect.poll(() => page.locator("#function-rows tr").count()).toBe(2);
    const { functions } = await services.library.list({}, { limit: 10, offset: 0 });
    expect(functions.map((f) => f.name).sort()).toEqual(["count_words", "mean"]);
  });

  it("changes settings and keeps the API key in a 0600 file without ever showing it", async () => {
    await page.click("#tab-settings");
    await expect.poll(() => page.textContent("#api-key-state")).toBe("not set");
    await page.selectOption("#setting-critic", "off");
    await page.fill("#setting-critic-model", "gemma-3-12b-it");
    await page.click("#settings-save");
    await expect.poll(() => page.textContent("#message")).toContain("Settings saved");
    const settingsPath = services.config.paths.settingsPath;
    expect(JSON.parse(readFileSync(settingsPath, "utf8"))).toMatchObject({
      critic: "off",
      criticModel: "gemma-3-12b-it",
      embedder: "auto",
    });
    expect(statSync(settingsPath).mode & 0o777).toBe(0o600);

    await page.fill("#api-key-input", API_KEY);
    await page.click("#api-key-save");
    await expect.poll(() => page.textContent("#api-key-state")).toBe("set (settings file)");
    const keyPath = services.config.paths.apiKeyPath;
    expect(readFileSync(keyPath, "utf8").trim()).toBe(API_KEY);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    expect(await page.inputValue("#api-key-input")).toBe("");
    expect(await page.content()).not.toContain(API_KEY);
    // With a key, "auto" embeds with Gemini; the critic stays off as set.
    await expect.poll(() => page.textContent("#embedding-effective")).toContain("gemini");
    expect(await page.textContent("#critic-effective")).toContain("off");
    const settings = await raw("GET", "/api/settings", { host: `127.0.0.1:${dashboard.port}` });
    expect(settings.status).toBe(200);
    expect(settings.body).not.toContain(API_KEY);

    await page.click("#api-key-clear");
    await expect.poll(() => page.textContent("#api-key-state")).toBe("not set");
    expect(existsSync(keyPath)).toBe(false);
  });

  it("chooses an OpenAI-compatible or GGUF embedding backend, and refuses a relative model path", async () => {
    await page.click("#tab-settings");
    await page.selectOption("#setting-embedder", "openai");
    await page.fill("#setting-embedding-model", "nomic-embed-text");
    await page.fill("#setting-embedding-url", "http://127.0.0.1:11434/v1");
    await page.click("#settings-save");
    await expect.poll(() => page.textContent("#embedding-effective")).toContain("openai:nomic-embed-text");
    const settingsPath = services.config.paths.settingsPath;
    expect(JSON.parse(readFileSync(settingsPath, "utf8"))).toMatchObject({
      embedder: "openai",
      embeddingModel: "nomic-embed-text",
      embeddingUrl: "http://127.0.0.1:11434/v1",
    });

    await page.fill("#setting-embedding-model-path", "models/embed.gguf");
    await page.click("#settings-save");
    await expect.poll(() => page.textContent("#message")).toContain("absolute path");
    expect(JSON.parse(readFileSync(settingsPath, "utf8")).embeddingModelPath).toBeUndefined();

    await page.selectOption("#setting-embedder", "gguf");
    await page.fill("#setting-embedding-model-path", "/models/embeddinggemma.gguf");
    await page.click("#settings-save");
    await expect.poll(() => page.textContent("#embedding-effective")).toContain("gguf:embeddinggemma.gguf");
    await page.reload();
    await page.click("#tab-settings");
    await expect.poll(() => page.inputValue("#setting-embedding-model-path")).toBe("/models/embeddinggemma.gguf");
    expect(await page.inputValue("#setting-embedding-url")).toBe("http://127.0.0.1:11434/v1");

    // Back to the built-in embedder for the tests that follow.
    await page.selectOption("#setting-embedder", "auto");
    await page.click("#settings-save");
    await expect.poll(() => page.textContent("#embedding-effective")).not.toContain("gguf");
  });

  it("is read-only without the token", async () => {
    const other = await browser.newPage();
    try {
      await other.goto(dashboard.url);
      await expect.poll(() => other.textContent("#token-state")).toContain("read-only");
      await other.click("#tab-functions");
      await other.click('#function-rows tr[data-name="count_words"]');
      await expect.poll(() => other.textContent("#detail-name")).toBe("count_words");
      other.once("dialog", (dialog) => void dialog.accept());
      await other.click("#delete-button");
      await expect.poll(() => other.textContent("#message")).toContain("needs the dashboard token");
      expect((await services.library.list({}, { limit: 10, offset: 0 })).total).toBe(2);
    } finally {
      await other.close();
    }
  });
});

describe("the dashboard's HTTP guards", () => {
  const host = () => `127.0.0.1:${dashboard.port}`;

  it("refuses changes without the right token", async () => {
    expect((await raw("DELETE", "/api/functions/count_words", { host: host() })).status).toBe(403);
    expect((await raw("DELETE", "/api/functions/count_words", { host: host(), "x-solo-token": "wrong" })).status).toBe(403);
    const put = await raw(
      "PUT",
      "/api/settings/api-key",
      { host: host(), "content-type": "application/json" },
      JSON.stringify({ key: "x" }),
    );
    expect(put.status).toBe(403);
  });

  it("refuses a foreign Origin or Host even with the token (DNS rebinding, cross-site)", async () => {
    const foreign = await raw("DELETE", "/api/functions/count_words", {
      host: host(),
      origin: "http://evil.example",
      "x-solo-token": TOKEN,
    });
    expect(foreign.status).toBe(403);
    const rebound = await raw("GET", "/api/status", { host: `evil.example:${dashboard.port}` });
    expect(rebound.status).toBe(403);
    expect((await services.library.list({}, { limit: 10, offset: 0 })).total).toBe(2);
  });

  it("serves the page with a strict content security policy", async () => {
    const response = await fetch(dashboard.url);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });
});
