/**
 * The HTML export: one static, self-contained page (its CSS inline, no script, no external
 * resource) that opens from disk. A summary table (coverage per functor, suspect rows), then per
 * functor a traceability matrix — each source object (title and id) against its image, the
 * arrows out of it and what the functor makes of them — with uncovered, trivially covered and
 * suspect rows marked, then the suspect links and why each is suspect. Every string that comes
 * from the project goes through escapeHtml: project files are not trusted.
 */
import type { TraceabilityModel, TraceArrow, TraceFunctor, TraceRow, TraceSuspectLink } from "./traceability.js";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** The page's whole style sheet (inline in the file; the dashboard serves it as /export/traceability.css). */
export const EXPORT_CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2330;background:#fff}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.2rem;margin:2rem 0 .5rem}
.muted{color:#5c6370}.mono,code{font-family:ui-monospace,monospace;font-size:.9em}
table{border-collapse:collapse;margin:.5rem 0 1rem;min-width:40rem}
th,td{border:1px solid #d0d5dd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f2f4f7}
tr.uncovered td{background:#fdecea}tr.trivially-covered td{background:#fff6e0}
.badge{display:inline-block;border-radius:.6rem;padding:0 .45rem;font-size:.8em;border:1px solid}
.badge.covered{color:#1e6b34;border-color:#1e6b34}.badge.trivially-covered{color:#8a5a00;border-color:#8a5a00}
.badge.uncovered{color:#a4161a;border-color:#a4161a}.badge.suspect{color:#fff;background:#c2255c;border-color:#c2255c}
ul.arrows{margin:0;padding-left:1rem}
`.trim();

function badge(kind: string, text: string): string {
  return `<span class="badge ${kind}">${escapeHtml(text)}</span>`;
}

const STATUS_TEXT: Record<TraceRow["status"], string> = {
  covered: "covered",
  "trivially-covered": "trivially covered",
  uncovered: "uncovered",
};

function arrowItem(arrow: TraceArrow): string {
  const image =
    arrow.image === null
      ? '<span class="muted">not mapped</span>'
      : `<code>${escapeHtml(arrow.image)}</code>${arrow.collapsed ? " (identity)" : ""}`;
  return `<li><code>${escapeHtml(arrow.morphismId)}</code> → <code>${escapeHtml(arrow.target)}</code> ↦ ${image}</li>`;
}

function row(r: TraceRow): string {
  const image =
    r.image === null ? '<span class="muted">—</span>' : `${escapeHtml(r.imageTitle ?? r.image)}<br><code>${escapeHtml(r.image)}</code>`;
  const arrows = r.arrows.length === 0 ? '<span class="muted">none</span>' : `<ul class="arrows">${r.arrows.map(arrowItem).join("")}</ul>`;
  const status = badge(r.status, STATUS_TEXT[r.status]) + (r.suspect ? ` ${badge("suspect", "suspect")}` : "");
  const suspect = r.suspectLinks.map((id) => `<code>${escapeHtml(id)}</code>`).join(", ");
  return (
    `<tr class="${r.status}${r.suspect ? " suspect" : ""}"><td>${escapeHtml(r.title)}<br><code>${escapeHtml(r.objectId)}</code></td>` +
    `<td>${image}</td><td>${arrows}</td><td>${status}</td><td>${suspect}</td></tr>`
  );
}

function functorSection(f: TraceFunctor): string {
  return (
    `<section id="functor-${escapeHtml(f.id)}"><h2>${escapeHtml(f.name)} <code>${escapeHtml(f.id)}</code>: ` +
    `${escapeHtml(f.sourceCategory)} → ${escapeHtml(f.targetCategory)}</h2>` +
    `<p>${f.percent.covered} % covered: ${f.covered} covered, ${f.triviallyCovered} trivially covered, ${f.uncovered} uncovered of ${f.objects}; ${f.suspect} suspect.</p>` +
    `<table><thead><tr><th>source object</th><th>image</th><th>arrows and their images</th><th>status</th><th>suspect links</th></tr></thead>` +
    `<tbody>${f.rows.map(row).join("")}</tbody></table></section>`
  );
}

function suspectItem(s: TraceSuspectLink): string {
  const why =
    s.via === null
      ? `changed: ${s.changed.map((id) => `<code>${escapeHtml(id)}</code>`).join(", ")}`
      : `through <code>${escapeHtml(s.via.linkId)}</code> (${escapeHtml(s.via.rule)})`;
  const arrow = s.kind === "mapping" ? "↦" : "→";
  return `<tr><td><code>${escapeHtml(s.id)}</code></td><td>${escapeHtml(s.kind)}</td><td><code>${escapeHtml(s.source)}</code> ${arrow} <code>${escapeHtml(s.target)}</code></td><td>${why}</td></tr>`;
}

export interface HtmlOptions {
  /**
   * Link this style sheet instead of inlining EXPORT_CSS: the dashboard serves the page under its
   * Content-Security-Policy, which allows no inline style.
   */
  stylesheetHref?: string;
}

/** The whole page. */
export function renderHtml(model: TraceabilityModel, options: HtmlOptions = {}): string {
  const style =
    options.stylesheetHref === undefined
      ? `<style>${EXPORT_CSS}</style>`
      : `<link rel="stylesheet" href="${escapeHtml(options.stylesheetHref)}">`;
  const title = `${model.project.name} — traceability`;
  const summary = model.functors
    .map(
      (f) =>
        `<tr><td><a href="#functor-${escapeHtml(f.id)}">${escapeHtml(f.id)}</a></td><td>${escapeHtml(f.sourceCategory)} → ${escapeHtml(f.targetCategory)}</td>` +
        `<td>${f.percent.covered} %</td><td>${f.covered}</td><td>${f.triviallyCovered}</td><td>${f.uncovered}</td><td>${f.suspect}</td></tr>`,
    )
    .join("");
  const suspects =
    model.suspectLinks.length === 0
      ? "<p>No suspect link.</p>"
      : `<table><thead><tr><th>link</th><th>kind</th><th>ends</th><th>why</th></tr></thead><tbody>${model.suspectLinks.map(suspectItem).join("")}</tbody></table>`;
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">` +
    `<title>${escapeHtml(title)}</title>${style}</head><body>` +
    `<h1>${escapeHtml(title)}</h1>` +
    `<p class="muted">Exported ${escapeHtml(model.generatedAt)} from category.yaml <span class="mono">${escapeHtml(model.project.version.slice(0, 12))}</span>` +
    `${model.functor === null ? "" : `, functor <code>${escapeHtml(model.functor)}</code> only`}. ` +
    `${model.summary.objects} objects in ${model.summary.categories} categories; ${model.summary.links} links, ${model.summary.reviewed} reviewed, ${model.summary.suspectLinks} suspect.</p>` +
    `<h2>Coverage</h2>` +
    (model.functors.length === 0
      ? "<p>No functor.</p>"
      : `<table><thead><tr><th>functor</th><th>categories</th><th>coverage</th><th>covered</th><th>trivially covered</th><th>uncovered</th><th>suspect rows</th></tr></thead><tbody>${summary}</tbody></table>`) +
    model.functors.map(functorSection).join("") +
    `<h2>Suspect links</h2>${suspects}</body></html>\n`
  );
}
