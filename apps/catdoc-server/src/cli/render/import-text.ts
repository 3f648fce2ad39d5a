/** An import report as text: what was (or would be) added, updated, skipped and linked. */
import type { ImportReport } from "../../domain/import/index.js";
import { oneLine } from "../text-width.js";
import { renderTable } from "../table.js";

function block(title: string, count: number, body: string): string {
  return count === 0 ? "" : `\n${title} (${count}):\n${body.trimEnd().replace(/^/gm, "  ")}\n`;
}

export function renderImport(report: ImportReport): string {
  const head = report.dryRun ? "Dry run: nothing written." : report.written ? "Wrote .catdoc/category.yaml." : "Nothing to change.";
  const created = new Set(report.categoriesCreated.map((c) => c.id));
  const fallback =
    report.categoryId === null
      ? "none (each document names its own)"
      : `${oneLine(report.categoryId)}${created.has(report.categoryId) ? " (created)" : ""}`;
  const category = `Category for documents naming none: ${fallback}; ${report.documentsRead} Markdown file(s) read.`;
  const objects = (list: ImportReport["added"]) =>
    renderTable(
      ["ID", "CATEGORY", "WHY", "TITLE", "DOMAIN", "PATH"],
      list.map((o) => [o.id, o.categoryId, o.placedBy, o.title, o.domain, o.path]),
    );
  const verb = report.dryRun ? "would be " : "";
  return (
    `${head}\n${category}\n` +
    block(
      `Categories ${verb}created`,
      report.categoriesCreated.length,
      renderTable(
        ["ID", "NAME", "NAMED BY"],
        report.categoriesCreated.map((c) => [c.id, c.name, c.document === undefined ? c.reason : `${c.reason} of ${c.document}`]),
      ),
    ) +
    block(`Objects ${verb}added`, report.added.length, objects(report.added)) +
    block(`Objects ${verb}updated`, report.updated.length, objects(report.updated)) +
    block("Objects unchanged", report.unchanged.length, objects(report.unchanged)) +
    block(
      `Morphisms ${verb}added for references`,
      report.proposedMorphisms.length,
      renderTable(
        ["ID", "NAME", "SOURCE", "TARGET", "FROM"],
        report.proposedMorphisms.map((m) => [m.id, m.name, m.source, m.target, m.reason]),
      ),
    ) +
    block(
      "Conflicts kept as they are (use --force to take the documents' values)",
      report.conflicts.length,
      renderTable(
        ["ID", "PATH", "FIELDS"],
        report.conflicts.map((c) => [c.id, c.path, c.fields.join(", ")]),
      ),
    ) +
    (report.existingMorphisms.length === 0
      ? ""
      : `\nReferences already linked by earlier imports: ${report.existingMorphisms.length} morphism(s).\n`) +
    block(
      "Skipped",
      report.skipped.length,
      renderTable(
        ["PATH", "REASON"],
        report.skipped.map((s) => [s.path, s.reason]),
      ),
    ) +
    block(
      "Unresolved references",
      report.unresolved.length,
      renderTable(
        ["IN", "REFERENCE", "KIND", "REASON"],
        report.unresolved.map((u) => [u.source, u.reference, u.kind, u.reason]),
      ),
    ) +
    block(
      `Functor mappings for references across categories${report.proposals.some((p) => p.status === "proposed") ? " (--apply-proposals writes those proposed)" : ""}`,
      report.proposals.length,
      renderTable(
        ["STATUS", "REFERENCE", "MAPPING", "EDIT"],
        report.proposals.map((p) => [
          report.dryRun && p.status === "applied" ? "would apply" : p.status,
          `${p.from} ${p.relation} ${p.to}`,
          `${p.sourceCategory} → ${p.targetCategory}: ${p.objectId} ↦ ${p.image}`,
          p.edit,
        ]),
      ).trimEnd() + report.proposals.map((p) => `\n${p.objectId} ↦ ${p.image}: ${oneLine(p.note)}`).join(""),
    ) +
    block("Warnings", report.warnings.length, report.warnings.map((warning) => oneLine(warning)).join("\n"))
  );
}
