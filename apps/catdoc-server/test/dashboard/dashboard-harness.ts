/** A dashboard started in-process on a free port over a project folder, and a small HTTP client. */
import { request } from "node:http";
import { afterEach } from "vitest";
import { CatDocStore } from "../../src/domain/index.js";
import { startDashboard } from "../../src/dashboard/index.js";
import type { DashboardHandle } from "../../src/dashboard/index.js";

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

/** One request with the headers given (node:http lets a test set Host, which fetch does not). */
export function http(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> }),
      );
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Dashboards started by the test file, closed after each test. */
export function useDashboards(): (
  root: string,
) => Promise<DashboardHandle & { api: (path: string, options?: Parameters<typeof http>[1]) => Promise<HttpAnswer> }> {
  const started: DashboardHandle[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((dashboard) => dashboard.close()));
  });
  return async (root) => {
    const dashboard = await startDashboard({ store: new CatDocStore(root), port: 0 });
    started.push(dashboard);
    return { ...dashboard, api: (path, options) => http(new URL(path, dashboard.url).toString(), options) };
  };
}
