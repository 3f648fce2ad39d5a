/**
 * The dashboard page in real headless Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core): it loads a fixture project, draws its nodes with cytoscape, shows the
 * validation results, and runs traces that highlight the path. Skipped, with a message, only
 * where Chromium is absent and CI is not set; in CI it must run.
 */
import { existsSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyExample, useTempDirs, validModel, writeProject } from "../domain/helpers.js";
import { runInProcess } from "../cli/run-in-process.js";
import { HOSTILE_TITLE, writeExportProject } from "../export/export-fixture.js";
import { useDashboards } from "./dashboard-harness.js";

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = "/tmp/catdoc-dashboard.png";
const available = existsSync(CHROMIUM);
const skip = !available && process.env["CI"] === undefined;
if (skip)
  console.warn(
    `[catdoc browser test] skipped: ${CHROMIUM} is absent (install Debian's chromium: apt-get install -y chromium); CI never skips it.`,
  );

const tempDir = useTempDirs();
const dashboardOn = useDashboards();

/** The page's test hooks (see assets/app.js, window.catdocDashboard). */
interface DashboardHooks {
  objectNodeCount(): number;
  highlightedIds(): string[];
}
declare const window: { catdocDashboard: DashboardHooks };
declare const document: {
  body: { dataset: Record<string, string | undefined> };
  querySelector(selector: string): unknown;
  querySelectorAll(selector: string): { length: number };
};
declare function getComputedStyle(element: Element): { backgroundColor: string };
interface Element {
  readonly tagName: string;
}

describe.skipIf(skip)("dashboard page in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens the page and waits (bounded) until it has drawn the graph and the validation. */
  async function open(url: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1360, height: 820 } });
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset["ready"] === "true", undefined, { timeout: 15_000 });
    return { page, problems };
  }

  async function runTrace(page: Page, source: string, target: string): Promise<void> {
    await page.fill("#trace-source", source);
    await page.fill("#trace-target", target);
    await page.evaluate(() => {
      document.body.dataset["trace"] = "";
    });
    await page.click("#trace-submit");
    await page.waitForFunction(() => document.body.dataset["trace"] === "done", undefined, { timeout: 15_000 });
  }

  it("dev-project: draws every document, shows validation, traces a path and highlights it", async () => {
    const dashboard = await dashboardOn(await copyExample(await tempDir(), "dev-project"));
    const { page, problems } = await open(dashboard.url);

    // All categories: 11 documents drawn by cytoscape (counted through its API and seen as a canvas).
    expect(await page.evaluate(() => window.catdocDashboard.objectNodeCount())).toBe(11);
    expect(await page.locator("#graph canvas").count()).toBeGreaterThan(0);
    expect(await page.textContent("#graph-stats")).toMatch(/^11 document\(s\), \d+ arrow\(s\) drawn\.$/);
    expect(await page.textContent("#project-name")).not.toBe("");

    // Validation: valid, nothing listed.
    expect(await page.textContent("#validation-summary")).toContain("Valid");
    expect(await page.textContent("#validation-summary")).toContain("0 error(s), 0 warning(s) — 5 categories, 4 functors");

    // One category: its two documents.
    await page.selectOption("#category-select", "requirements");
    await page.waitForFunction(() => window.catdocDashboard.objectNodeCount() === 2, undefined, { timeout: 10_000 });

    // Trace inside the category: the path's morphism and both ends are highlighted, and listed.
    await runTrace(page, "req-auth-system", "req-user-management");
    const highlighted = await page.evaluate(() => window.catdocDashboard.highlightedIds());
    expect(highlighted.sort()).toEqual(["m:req-auth-depends-user", "o:req-auth-system", "o:req-user-management"]);
    expect(await page.locator("#trace-result .trace-steps li").allTextContents()).toEqual([
      "morphismreq-auth-system —depends-on (req-auth-depends-user)→ req-user-management",
    ]);

    // Across categories: the page switches to all categories and highlights the functor arrows.
    await runTrace(page, "req-user-management", "infra-k8s-user");
    await page.waitForFunction(() => window.catdocDashboard.objectNodeCount() === 11, undefined, { timeout: 10_000 });
    const across = await page.evaluate(() => window.catdocDashboard.highlightedIds());
    expect(across).toEqual(
      expect.arrayContaining(["f:specify-functor:req-user-management", "f:deploy-functor:internal-user-repository", "o:infra-k8s-user"]),
    );
    expect(await page.locator("#trace-result .trace-steps li").count()).toBe(4);
    expect(await page.inputValue("#category-select")).toBe("");

    await page.screenshot({ path: SCREENSHOT });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("math-docs: lists the three MISSING_COMPOSITION warnings and highlights a three-step path", async () => {
    const dashboard = await dashboardOn(await copyExample(await tempDir(), "math-docs"));
    const { page, problems } = await open(dashboard.url);
    expect(await page.evaluate(() => window.catdocDashboard.objectNodeCount())).toBe(8);
    expect(await page.textContent("#validation-summary")).toContain("0 error(s), 3 warning(s)");
    expect(await page.locator("#validation-list li[data-code=MISSING_COMPOSITION]").count()).toBe(3);
    expect(await page.locator("#validation-list li .issue-message").first().textContent()).toBe(
      "Missing composition: group-to-ring∘set-to-group (sets → rings)",
    );

    await runTrace(page, "sets", "fields");
    const highlighted = await page.evaluate(() => window.catdocDashboard.highlightedIds());
    expect(highlighted.filter((id) => id.startsWith("m:")).sort()).toEqual(["m:group-to-ring", "m:ring-to-field", "m:set-to-group"]);
    expect(await page.textContent("#trace-result")).toContain("1 path(s) in algebra; shortest: 3 step(s).");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("coverage, suspect links, search and the HTML export: shown as text, under the CSP without a violation", async () => {
    const root = await writeExportProject(await tempDir());
    expect((await runInProcess(["review", "--all"], root)).code).toBe(0);
    await appendFile(join(root, "docs/req-login.md"), "Users may log in with a passkey.\n");
    const dashboard = await dashboardOn(root);
    const { page, problems } = await open(dashboard.url);
    expect(await page.locator("#coverage tr[data-functor=tests] td").allTextContents()).toEqual(["tests", "33.3 %", "1", "1"]);
    expect(await page.locator("#coverage .coverage-gaps li").allTextContents()).toEqual([
      "trivially covered req-session",
      "uncovered req-audit",
    ]);
    expect(await page.textContent("#suspect-summary")).toBe("3 suspect of 5 links (5 reviewed, 0 never reviewed)");
    expect(await page.locator("#suspect-list li code").allTextContents()).toEqual([
      "req-login-session",
      "tests/req-login",
      "test-login-session",
    ]);

    await page.fill("#search-query", "passkey");
    await page.click("#search-submit");
    await page.waitForFunction(() => document.querySelectorAll("#search-results li").length > 0, undefined, { timeout: 10_000 });
    expect(await page.locator("#search-results li").allTextContents()).toEqual([`${HOSTILE_TITLE} req-login · requirements`]);
    expect(await page.locator("#search-results script").count()).toBe(0);

    const exportPage = await browser.newPage();
    exportPage.on("console", (message) => {
      if (message.type() === "error") problems.push(`export console: ${message.text()}`);
    });
    await exportPage.goto(new URL((await page.getAttribute("#export-html", "href")) ?? "", dashboard.url).toString());
    expect(await exportPage.textContent("tr.uncovered td")).toContain("=HYPERLINK");
    // The linked style sheet applied (the CSP allows it): an uncovered row's cells are tinted.
    expect(await exportPage.evaluate(() => getComputedStyle(document.querySelector("tr.uncovered td") as Element).backgroundColor)).toBe(
      "rgb(253, 236, 234)",
    );
    expect(problems).toEqual([]);
    await exportPage.close();
    await page.close();
  });

  it("shows errors with their codes, and inserts project text as text, never as HTML", async () => {
    const model = validModel();
    const C = model.categories[0];
    if (C === undefined) throw new Error("fixture changed");
    C.objects.push({ id: "<img src=x onerror=alert(1)>", title: "<b>bold?</b>", domain: "test" });
    const dashboard = await dashboardOn(await writeProject(await tempDir(), stringify(model)));
    const { page, problems } = await open(dashboard.url);
    expect(await page.textContent("#validation-summary")).toContain("Invalid");
    const missing = page.locator("#validation-list li[data-code=MISSING_IDENTITY]");
    expect(await missing.count()).toBe(1);
    expect(await missing.textContent()).toContain("<img src=x onerror=alert(1)>");
    expect(await page.locator("#validation-list img, #validation-list b").count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
