/** `catdoc show` in text: one item with its relations, readable in a terminal. */
import { stringify } from "yaml";
import type { CategoryDetail, ObjectDetail } from "../../dashboard/details.js";
import type { MorphismView } from "../../dashboard/views.js";
import type { Functor, NaturalTransformation } from "../../domain/index.js";
import { renderTable } from "../table.js";
import { oneLine, safeText } from "../text-width.js";

function indent(text: string, by = "  "): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? line : `${by}${line}`))
    .join("\n");
}

function fields(pairs: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...pairs.map(([label]) => label.length)) + 1;
  return pairs.map(([label, value]) => `  ${`${label}:`.padEnd(width)} ${oneLine(value)}\n`).join("");
}

function metadataBlock(metadata: Record<string, unknown> | undefined): string {
  if (metadata === undefined || Object.keys(metadata).length === 0) return "";
  return `  metadata:\n${indent(safeText(stringify(metadata)).trimEnd(), "    ")}\n`;
}

function section(title: string, body: string): string {
  return `\n${title}\n${body === "" ? "  (none)\n" : indent(body)}`;
}

function morphismTable(morphisms: readonly MorphismView[]): string {
  if (morphisms.length === 0) return "";
  return renderTable(
    ["ID", "NAME", "SOURCE", "TARGET", "IDENTITY"],
    morphisms.map((m) => [m.id, m.name, m.source, m.target, m.isIdentity ? "yes" : ""]),
  );
}

function mappingTable(headers: [string, string], mapping: Record<string, string>): string {
  const entries = Object.entries(mapping);
  return entries.length === 0 ? "" : renderTable(headers, entries);
}

export function objectText(detail: ObjectDetail): string {
  const { object } = detail;
  const document = detail.document === null ? "(none found)" : `${detail.document.path ?? "inline content"} (${detail.document.origin})`;
  return (
    `Object ${oneLine(object.id)} — ${oneLine(object.title)}\n` +
    fields([
      ["domain", object.domain],
      ["category", object.categoryId],
      ["identity", detail.identity ?? "(none)"],
      ["document", document],
    ]) +
    metadataBlock(object.metadata) +
    section("Outgoing morphisms", morphismTable(detail.outgoingMorphisms)) +
    section("Incoming morphisms", morphismTable(detail.incomingMorphisms))
  );
}

export function morphismText({ morphism }: { morphism: MorphismView }): string {
  return (
    `Morphism ${oneLine(morphism.id)} — ${oneLine(morphism.name)}\n` +
    fields([
      ["from", morphism.source],
      ["to", morphism.target],
      ["category", morphism.categoryId],
      ["identity", morphism.isIdentity ? "yes" : "no"],
    ]) +
    metadataBlock(morphism.metadata)
  );
}

export function categoryText(detail: CategoryDetail): string {
  const { category } = detail;
  const objects =
    category.objects.length === 0
      ? ""
      : renderTable(
          ["ID", "TITLE", "DOMAIN"],
          category.objects.map((o) => [o.id, o.title, o.domain]),
        );
  const functors =
    detail.functors.length === 0
      ? ""
      : renderTable(
          ["ID", "NAME", "SOURCE", "TARGET"],
          detail.functors.map((f) => [f.id, f.name, f.sourceCategory, f.targetCategory]),
        );
  const nts =
    detail.naturalTransformations.length === 0
      ? ""
      : renderTable(
          ["ID", "NAME", "SOURCE FUNCTOR", "TARGET FUNCTOR"],
          detail.naturalTransformations.map((n) => [n.id, n.name, n.sourceFunctor, n.targetFunctor]),
        );
  return (
    `Category ${oneLine(category.id)} — ${oneLine(category.name)}\n` +
    fields([
      ["objects", String(category.objects.length)],
      ["morphisms", String(category.morphisms.length)],
    ]) +
    section("Objects", objects) +
    section("Morphisms", morphismTable(category.morphisms)) +
    section("Functors from or to it", functors) +
    section("Natural transformations between its functors", nts)
  );
}

export function functorText({ functor }: { functor: Functor }): string {
  return (
    `Functor ${oneLine(functor.id)} — ${oneLine(functor.name)}\n` +
    fields([
      ["from", functor.sourceCategory],
      ["to", functor.targetCategory],
    ]) +
    section("Object mapping", mappingTable(["OBJECT", "IMAGE"], functor.objectMapping)) +
    section("Morphism mapping", mappingTable(["MORPHISM", "IMAGE"], functor.morphismMapping))
  );
}

export function naturalTransformationText({ naturalTransformation: nt }: { naturalTransformation: NaturalTransformation }): string {
  return (
    `Natural transformation ${oneLine(nt.id)} — ${oneLine(nt.name)}\n` +
    fields([
      ["from functor", nt.sourceFunctor],
      ["to functor", nt.targetFunctor],
    ]) +
    section("Components (object → component morphism)", mappingTable(["OBJECT", "COMPONENT"], nt.components))
  );
}
