/**
 * The dashboard's exports: `GET /export/traceability.<html|csv|reqif|json>[?functor=F]` answers
 * what `catdoc export` writes, made by the same code (domain/export/). The page is served under
 * the dashboard's one Content-Security-Policy (core's sendAsset), so it links its style sheet,
 * `/export/traceability.css`, instead of inlining it; the other formats come as downloads.
 */
import { HttpError, sendAsset } from "@local-mcp/core";
import type { ServerResponse } from "node:http";
import type { CatDocStore } from "../domain/index.js";
import { EXPORT_CONTENT_TYPES, EXPORT_CSS, EXPORT_FORMATS, renderExport } from "../domain/export/index.js";
import type { ExportFormat } from "../domain/export/index.js";

export const EXPORT_PATH_PREFIX = "/export/";
export const EXPORT_STYLESHEET_PATH = "/export/traceability.css";

function formatOf(pathname: string): ExportFormat {
  const match = /^\/export\/traceability\.([a-z]+)$/.exec(pathname);
  const format = EXPORT_FORMATS.find((f) => f === match?.[1]);
  if (format === undefined)
    throw new HttpError(
      404,
      "NOT_FOUND",
      `Not found; the exports are ${EXPORT_FORMATS.map((f) => `/export/traceability.${f}`).join(", ")}`,
    );
  return format;
}

/** Answers a request under /export/ (GET or HEAD); throws HttpError or the domain's coded errors. */
export async function sendExport(res: ServerResponse, method: string, url: URL, store: CatDocStore): Promise<void> {
  if (method !== "GET" && method !== "HEAD")
    throw new HttpError(405, "INVALID_INPUT", `Method ${method} not allowed here; use GET, HEAD`, { Allow: "GET, HEAD" });
  const headOnly = method === "HEAD";
  if (url.pathname === EXPORT_STYLESHEET_PATH) {
    sendAsset(res, EXPORT_CSS, "text/css; charset=utf-8", { headOnly });
    return;
  }
  const format = formatOf(url.pathname);
  const functorId = url.searchParams.get("functor") ?? "";
  const { text } = await renderExport(await store.load(), {
    format,
    tool: "CatDoc dashboard",
    ...(functorId === "" ? {} : { functorId }),
    ...(format === "html" ? { stylesheetHref: EXPORT_STYLESHEET_PATH } : {}),
  });
  const download: Record<string, string> =
    format === "html" ? {} : { "Content-Disposition": `attachment; filename="traceability.${format}"` };
  sendAsset(res, text, EXPORT_CONTENT_TYPES[format], { headOnly, headers: download });
}
