/**
 * The ReqIF export: ReqIF 1.2 XML (namespace http://www.omg.org/spec/ReqIF/20110401/reqif.xsd)
 * built with fast-xml-parser's XMLBuilder. Every object of every category is a SPEC-OBJECT (its
 * title as ReqIF.Name, its document's text as ReqIF.Text, its id as ReqIF.ForeignID, its domain
 * and category); every non-identity morphism and every functor object mapping is a SPEC-RELATION
 * between them; every category is a SPECIFICATION whose SPEC-HIERARCHY lists its objects.
 * IDENTIFIERs are XML names made from the ids (unsafe characters become `_`, a clash gets a
 * number), so a tool can follow SOURCE/TARGET references; the ids themselves are kept as values.
 * Values are escaped here (the builder's own entity handling is off): & < > " and line breaks as
 * character references, so a multi-line text survives attribute normalization; characters XML
 * 1.0 cannot carry (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are dropped.
 */
import { XMLBuilder } from "fast-xml-parser";
import type { TraceabilityModel } from "./traceability.js";

export const REQIF_NAMESPACE = "http://www.omg.org/spec/ReqIF/20110401/reqif.xsd";

const INVALID_XML =
  // eslint-disable-next-line no-control-regex -- the characters XML 1.0 cannot carry are what this matches
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "\n": "&#10;",
  "\r": "&#13;",
  "\t": "&#9;",
};

/** A value as XML attribute or element text: escaped, line breaks kept as character references, invalid characters dropped. */
export function xmlText(value: string): string {
  return value.replace(INVALID_XML, "").replace(/[&<>"\n\r\t]/g, (c) => XML_ESCAPES[c] ?? c);
}

/** Makes XML names (xsd:ID) from ids, each distinct. */
class Identifiers {
  private readonly used = new Set<string>();
  private readonly byKey = new Map<string, string>();

  of(prefix: string, key: string): string {
    const known = this.byKey.get(`${prefix}\u0000${key}`);
    if (known !== undefined) return known;
    const base = `${prefix}-${key.replace(/[^A-Za-z0-9_.-]/g, "_")}`;
    let name = base;
    for (let n = 2; this.used.has(name); n += 1) name = `${base}-${n}`;
    this.used.add(name);
    this.byKey.set(`${prefix}\u0000${key}`, name);
    return name;
  }
}

type Node = Record<string, unknown>;

function stringValue(definition: string, value: string): Node {
  return {
    "@_THE-VALUE": value,
    DEFINITION: { "ATTRIBUTE-DEFINITION-STRING-REF": definition },
  };
}

function attributeDefinition(id: string, longName: string, lastChange: string): Node {
  return {
    "@_IDENTIFIER": id,
    "@_LAST-CHANGE": lastChange,
    "@_LONG-NAME": longName,
    TYPE: { "DATATYPE-DEFINITION-STRING-REF": "datatype-string" },
  };
}

export interface ReqifOptions {
  /** The text of each object's document (by object id); objects without one get their inline content or nothing. */
  texts: ReadonlyMap<string, string>;
  /** The tool's name and version for REQ-IF-HEADER's SOURCE-TOOL-ID. */
  tool: string;
}

/** The ReqIF document. */
export function renderReqif(model: TraceabilityModel, options: ReqifOptions): string {
  const at = model.generatedAt;
  const ids = new Identifiers();
  const objectRef = new Map<string, string>();
  const objectKey = (categoryId: string, objectId: string) => `${categoryId}\u0000${objectId}`;
  const specObjects: Node[] = [];
  const specifications: Node[] = [];
  for (const category of model.categories) {
    const children: Node[] = [];
    for (const object of category.objects) {
      const key = objectKey(category.id, object.id);
      if (objectRef.has(key)) continue;
      const identifier = ids.of("object", `${category.id}.${object.id}`);
      objectRef.set(key, identifier);
      specObjects.push({
        "@_IDENTIFIER": identifier,
        "@_LAST-CHANGE": at,
        "@_LONG-NAME": object.title,
        VALUES: {
          "ATTRIBUTE-VALUE-STRING": [
            stringValue("attribute-name", object.title),
            stringValue("attribute-text", options.texts.get(object.id) ?? ""),
            stringValue("attribute-foreign-id", object.id),
            stringValue("attribute-domain", object.domain),
            stringValue("attribute-category", category.id),
          ],
        },
        TYPE: { "SPEC-OBJECT-TYPE-REF": "type-object" },
      });
      children.push({
        "@_IDENTIFIER": ids.of("hierarchy", key),
        "@_LAST-CHANGE": at,
        OBJECT: { "SPEC-OBJECT-REF": identifier },
      });
    }
    specifications.push({
      "@_IDENTIFIER": ids.of("category", category.id),
      "@_LAST-CHANGE": at,
      "@_LONG-NAME": category.name,
      TYPE: { "SPECIFICATION-TYPE-REF": "type-category" },
      ...(children.length === 0 ? {} : { CHILDREN: { "SPEC-HIERARCHY": children } }),
    });
  }
  const relations: Node[] = [];
  const relation = (id: string, type: string, name: string, foreignId: string, suspect: boolean, source: string, target: string) =>
    relations.push({
      "@_IDENTIFIER": ids.of("relation", id),
      "@_LAST-CHANGE": at,
      "@_LONG-NAME": name,
      VALUES: {
        "ATTRIBUTE-VALUE-STRING": [
          stringValue(`${type}-name`, name),
          stringValue(`${type}-id`, foreignId),
          stringValue(`${type}-suspect`, suspect ? "yes" : "no"),
        ],
      },
      SOURCE: { "SPEC-OBJECT-REF": source },
      TARGET: { "SPEC-OBJECT-REF": target },
      TYPE: { "SPEC-RELATION-TYPE-REF": type },
    });
  const suspect = new Set(model.suspectLinks.map((s) => s.id));
  for (const category of model.categories) {
    for (const morphism of category.morphisms) {
      if (morphism.identity) continue;
      const source = objectRef.get(objectKey(category.id, morphism.source));
      const target = objectRef.get(objectKey(category.id, morphism.target));
      if (source === undefined || target === undefined) continue;
      relation(`${category.id}.${morphism.id}`, "type-morphism", morphism.name, morphism.id, morphism.suspect, source, target);
    }
  }
  for (const functor of model.functors) {
    for (const row of functor.rows) {
      if (row.image === null) continue;
      const source = objectRef.get(objectKey(functor.sourceCategory, row.objectId));
      const target = objectRef.get(objectKey(functor.targetCategory, row.image));
      if (source === undefined || target === undefined) continue;
      const linkId = `${functor.id}/${row.objectId}`;
      relation(linkId, "type-mapping", functor.name, linkId, suspect.has(linkId), source, target);
    }
  }
  const definitions = (entries: [string, string][]) => entries.map(([id, name]) => attributeDefinition(id, name, at));
  const document = {
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    "REQ-IF": {
      "@_xmlns": REQIF_NAMESPACE,
      "THE-HEADER": {
        "REQ-IF-HEADER": {
          "@_IDENTIFIER": "header",
          "CREATION-TIME": at,
          "REQ-IF-TOOL-ID": options.tool,
          "REQ-IF-VERSION": "1.0",
          "SOURCE-TOOL-ID": options.tool,
          TITLE: `${model.project.name} — traceability`,
        },
      },
      "CORE-CONTENT": {
        "REQ-IF-CONTENT": {
          DATATYPES: {
            "DATATYPE-DEFINITION-STRING": {
              "@_IDENTIFIER": "datatype-string",
              "@_LAST-CHANGE": at,
              "@_LONG-NAME": "String",
              "@_MAX-LENGTH": "1000000",
            },
          },
          "SPEC-TYPES": {
            "SPEC-OBJECT-TYPE": {
              "@_IDENTIFIER": "type-object",
              "@_LAST-CHANGE": at,
              "@_LONG-NAME": "CatDoc object",
              "SPEC-ATTRIBUTES": {
                "ATTRIBUTE-DEFINITION-STRING": definitions([
                  ["attribute-name", "ReqIF.Name"],
                  ["attribute-text", "ReqIF.Text"],
                  ["attribute-foreign-id", "ReqIF.ForeignID"],
                  ["attribute-domain", "CatDoc.Domain"],
                  ["attribute-category", "CatDoc.Category"],
                ]),
              },
            },
            "SPEC-RELATION-TYPE": [
              ["type-morphism", "CatDoc morphism"],
              ["type-mapping", "CatDoc functor mapping"],
            ].map(([id, name]) => ({
              "@_IDENTIFIER": id,
              "@_LAST-CHANGE": at,
              "@_LONG-NAME": name,
              "SPEC-ATTRIBUTES": {
                "ATTRIBUTE-DEFINITION-STRING": definitions([
                  [`${id}-name`, "ReqIF.Name"],
                  [`${id}-id`, "ReqIF.ForeignID"],
                  [`${id}-suspect`, "CatDoc.Suspect"],
                ]),
              },
            })),
            "SPECIFICATION-TYPE": { "@_IDENTIFIER": "type-category", "@_LAST-CHANGE": at, "@_LONG-NAME": "CatDoc category" },
          },
          "SPEC-OBJECTS": specObjects.length === 0 ? "" : { "SPEC-OBJECT": specObjects },
          "SPEC-RELATIONS": relations.length === 0 ? "" : { "SPEC-RELATION": relations },
          SPECIFICATIONS: specifications.length === 0 ? "" : { SPECIFICATION: specifications },
        },
      },
    },
  };
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    format: true,
    processEntities: false,
    attributeValueProcessor: (_name: string, value: unknown) => xmlText(String(value)),
    tagValueProcessor: (_name: string, value: unknown) => xmlText(String(value)),
  });
  return builder.build(document) as string;
}
