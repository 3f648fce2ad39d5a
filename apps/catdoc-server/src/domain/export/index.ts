/**
 * Exports of a project's traceability (issue 17): `html` (a static page that opens from disk),
 * `csv`, `reqif` (ReqIF 1.2 XML) and `json` (the traceability model, versioned). renderExport
 * makes the text; writeExport writes it into the project — the path confined to the project root
 * by core's path guard, never into .catdoc/, replacing an existing file atomically (a temporary
 * file renamed over it), so a reader sees the old export or the new one and a refused path
 * leaves nothing behind.
 */
import { realpath, stat } from "node:fs/promises";
import { dirname, relative, sep } from "node:path";
import { ConfinementError, ToolError, writeFileConfined } from "@local-mcp/core";
import { CatDocForbiddenError, CatDocInputError } from "../errors.js";
import { pathErrorFrom, resolveInsideRoot } from "../paths.js";
import type { CatDocProject } from "../project.js";
import { renderCsv } from "./csv.js";
import { renderHtml } from "./html.js";
import { renderReqif } from "./reqif.js";
import { buildTraceability } from "./traceability.js";
import type { TraceabilityModel, TraceabilityOptions } from "./traceability.js";

export { buildTraceability, suspectLinkView, TRACEABILITY_SCHEMA, TRACEABILITY_VERSION } from "./traceability.js";
export type * from "./traceability.js";
export { escapeHtml, EXPORT_CSS, renderHtml } from "./html.js";
export type { HtmlOptions } from "./html.js";
export { CSV_COLUMNS, neutralizeFormula, renderCsv } from "./csv.js";
export { REQIF_NAMESPACE, renderReqif, xmlText } from "./reqif.js";

export const EXPORT_FORMATS = ["html", "csv", "reqif", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  html: "text/html; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  reqif: "application/xml; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/** The format a file name's extension names (`.html`/`.htm`, `.csv`, `.reqif`/`.xml`, `.json`), if any. */
export function formatOfPath(path: string): ExportFormat | undefined {
  const extension = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  if (extension === "htm" || extension === "html") return "html";
  if (extension === "xml" || extension === "reqif") return "reqif";
  if (extension === "csv" || extension === "json") return extension;
  return undefined;
}

export interface ExportOptions extends TraceabilityOptions {
  format: ExportFormat;
  /** html: link this style sheet instead of inlining the CSS (html.ts). */
  stylesheetHref?: string;
  /** REQ-IF-HEADER's tool id (default "CatDoc"). */
  tool?: string;
}

export interface RenderedExport {
  format: ExportFormat;
  text: string;
  model: TraceabilityModel;
}

/** The export's text and the model it was made from. */
export async function renderExport(project: CatDocProject, options: ExportOptions): Promise<RenderedExport> {
  const model = await buildTraceability(project, options);
  switch (options.format) {
    case "html":
      return {
        format: "html",
        text: renderHtml(model, options.stylesheetHref === undefined ? {} : { stylesheetHref: options.stylesheetHref }),
        model,
      };
    case "csv":
      return { format: "csv", text: renderCsv(model), model };
    case "json":
      return { format: "json", text: `${JSON.stringify(model, null, 2)}\n`, model };
    case "reqif": {
      const documents = await project.documents();
      const texts = new Map<string, string>();
      for (const [id, document] of documents.byObject) texts.set(id, document.body);
      return { format: "reqif", text: renderReqif(model, { texts, tool: options.tool ?? "CatDoc" }), model };
    }
  }
}

export interface WrittenExport extends RenderedExport {
  /** The real path written. */
  path: string;
  /** Root-relative, with `/`. */
  relativePath: string;
  bytes: number;
  /** True when a file was there before and was replaced. */
  replaced: boolean;
}

/**
 * Renders the export and writes it at `out` (absolute, or relative to the project root): FORBIDDEN
 * outside the project or inside .catdoc/, INVALID_INPUT for a folder, NOT_FOUND when its folder
 * does not exist — each before anything is written. An existing file is replaced.
 */
export async function writeExport(
  project: CatDocProject,
  absoluteOut: string,
  options: ExportOptions,
  given = absoluteOut,
): Promise<WrittenExport> {
  const root = project.paths.root;
  // Messages name the path as the user gave it (`given`); the checks use the absolute one.
  const out = given;
  const target = await resolveInsideRoot(root, absoluteOut, "out").catch((error: unknown) => {
    if (error instanceof ToolError && error.code === "FORBIDDEN") {
      const why = error.message.includes("resolves outside") ? "resolves outside" : "is outside";
      throw new CatDocForbiddenError(`out: '${out}' ${why} the project root`, { path: out, root });
    }
    throw error;
  });
  const realRoot = await realpath(root);
  const inCatdoc = relative(await realpath(project.paths.catdocDir).catch(() => project.paths.catdocDir), target);
  if (inCatdoc === "" || (!inCatdoc.startsWith("..") && !inCatdoc.startsWith(sep) && !/^[A-Za-z]:/.test(inCatdoc))) {
    throw new CatDocForbiddenError(`out: '${out}' is inside .catdoc/, where CatDoc keeps its own files; export elsewhere in the project`, {
      path: out,
    });
  }
  const existing = await stat(target).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw pathErrorFrom(error, out, "out");
  });
  if (existing?.isDirectory() === true) throw new CatDocInputError(`out: '${out}' is a folder; name the file to write`, { path: out });
  await stat(dirname(target)).catch((error: unknown) => {
    throw pathErrorFrom(error, dirname(out), "out");
  });
  const rendered = await renderExport(project, options);
  let written: string;
  try {
    written = await writeFileConfined(target, rendered.text, [realRoot]);
  } catch (error) {
    if (error instanceof ConfinementError)
      throw new CatDocForbiddenError(`out: '${out}' resolves outside the project root`, { path: out, root });
    throw pathErrorFrom(error, out, "out");
  }
  return {
    ...rendered,
    path: written,
    relativePath: relative(realRoot, written).split(sep).join("/"),
    bytes: Buffer.byteLength(rendered.text),
    replaced: existing !== undefined,
  };
}
