/** An import report as text: what was (or would be) added, updated, skipped and linked. */
import type { ImportReport } from "../../domain/import/index.js";
import { proposedFunctorId } from "../../domain/import/plan-proposals.js";
import { oneLine } from "../text-width.js";
import { renderTable } from "../table.js";

function block(title: string, count: number, body: string): string {
  return count === 0 ? "" : `\n${title} (${count}):\n${body.trimEnd().replace(/^/gm, "  ")}\n`;
}

/** A word for a shell command line: as is when plain, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w./@-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * Under the proposals, each distinct note once (not once per row); for the category pairs no
 * functor joins, the command that creates the functor the edits name — after which
 * `--apply-proposals` writes the mappings. The exact YAML edit of each proposal is in `--format json`.
 */
function proposalNotes(proposals: ImportReport["proposals"]): string {
  const lines = new Set<string>();
  for (const p of proposals) {
    if (p.status === "no functor") {
      const id = proposedFunctorId(p.sourceCategory, p.targetCategory);
      lines.add(
        `No functor joins ${oneLine(p.sourceCategory)} → ${oneLine(p.targetCategory)}: create it, then import again with --apply-proposals:\n` +
          `  catdoc add functor ${shellWord(id)} --name ${shellWord(`${p.sourceCategory} to ${p.targetCategory}`)} ` +
          `--source-category ${shellWord(p.sourceCategory)} --target-category ${shellWord(p.targetCategory)}`,
      );
    } else if (p.status !== "applied" && p.status !== "mapped") {
      lines.add(oneLine(p.note));
    }
  }
  return [...lines].map((line) => `\n${line}`).join("");
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
        ["STATUS", "REFERENCE", "MAPPING", "FUNCTOR"],
        report.proposals.map((p) => [
          report.dryRun && p.status === "applied" ? "would apply" : p.status,
          `${p.from} ${p.relation} ${p.to}`,
          `${p.sourceCategory} → ${p.targetCategory}: ${p.objectId} ↦ ${p.image}`,
          p.functorId ?? "",
        ]),
      ).trimEnd() + proposalNotes(report.proposals),
    ) +
    block("Warnings", report.warnings.length, report.warnings.map((warning) => oneLine(warning)).join("\n"))
  );
}
