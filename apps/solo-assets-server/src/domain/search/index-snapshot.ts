/**
 * The search index persisted beside the library (issue 19), so a new process answers its first
 * search without reading every vector from DuckDB (8–9 s at 100k functions): one file per
 * embedding model, `<library>.search-index.<model>-<dimension>.bin`, holding the index's arrays
 * (search-index.ts) and the library fingerprint (count, sum and max of the functions' revisions)
 * they were in step with. A process that loads it then reads from the library only the rows whose
 * revision is newer — the same revisions and fingerprint every search already checks — so a
 * snapshot that is behind is brought up to date, never trusted past its fingerprint.
 *
 * Written whole through a temporary file and a rename (core's writeFileAtomic): a kill -9 in the
 * middle leaves the previous file or the new one, never a torn one. The reader checks anyway —
 * magic, header, every section's length within the file, and a CRC-32 of the header — and treats
 * any file it cannot trust as absent (the index is then loaded from the library, as before).
 */
import { crc32 } from "node:zlib";
import type { IndexSnapshot } from "./search-index.js";

const MAGIC = "SOLOIDX1";
const FORMAT = 1;

/** The snapshot file of one model beside the library database. */
export function indexSnapshotPath(dbPath: string, model: string, dimension: number): string {
  return `${dbPath}.search-index.${model.replace(/[^A-Za-z0-9._-]+/g, "_")}-${dimension}.bin`;
}

type ArrayName = "ids" | "revisions" | "statuses" | "hasVector" | "scales" | "norms" | "signatures" | "vectors";
const ARRAYS: readonly ArrayName[] = ["ids", "revisions", "statuses", "hasVector", "scales", "norms", "signatures", "vectors"];
type PostingName = "offsets" | "slots" | "weights";
const POSTINGS: readonly PostingName[] = ["offsets", "slots", "weights"];

interface Header {
  format: number;
  model: string;
  dimension: number;
  library: string;
  fingerprint: IndexSnapshot["fingerprint"];
  used: number;
  /** name → [byte offset in the body, element count] */
  sections: Record<string, [number, number]>;
  body: number;
}

type Typed = Int32Array | Float64Array | Uint8Array | Float32Array | Uint32Array | Int8Array;

/** The file's bytes: magic, header length (u32 LE), the header's CRC-32, the header (JSON), the body (8-byte aligned sections). */
export function encodeIndexSnapshot(snapshot: IndexSnapshot): Buffer {
  const parts: { name: string; bytes: Uint8Array; count: number }[] = [];
  const add = (name: string, array: Typed) =>
    parts.push({ name, bytes: new Uint8Array(array.buffer, array.byteOffset, array.byteLength), count: array.length });
  for (const name of ARRAYS) add(name, snapshot[name]);
  for (const name of POSTINGS) add(`postings.${name}`, snapshot.postings[name]);
  // Each slot's tag set as a number into one list of the distinct sets (JSON of 100k small arrays
  // took ~0.3 s to parse, and as many arrays ~0.2 s of garbage collection).
  const tagSets: string[] = [];
  const tagSetIds = new Map<string, number>();
  const slotTags = new Int32Array(snapshot.used);
  snapshot.tags.forEach((tags, slot) => {
    let id = tagSetIds.get(tags);
    if (id === undefined) {
      id = tagSets.length;
      tagSets.push(tags);
      tagSetIds.set(tags, id);
    }
    slotTags[slot] = id;
  });
  add("tags", slotTags);
  const text = Buffer.from(JSON.stringify({ tags: tagSets, terms: snapshot.terms }));
  parts.push({ name: "text", bytes: text, count: text.length });

  const sections: Header["sections"] = {};
  let offset = 0;
  for (const part of parts) {
    sections[part.name] = [offset, part.count];
    offset += Math.ceil(part.bytes.byteLength / 8) * 8;
  }
  const header: Header = {
    format: FORMAT,
    model: snapshot.model,
    dimension: snapshot.dimension,
    library: snapshot.library,
    fingerprint: snapshot.fingerprint,
    used: snapshot.used,
    sections,
    body: offset,
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const prefix = 8 + 4 + 4;
  const bodyStart = Math.ceil((prefix + headerBytes.length) / 8) * 8;
  const out = Buffer.alloc(bodyStart + offset);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(headerBytes.length, 8);
  out.writeUInt32LE(crc32(headerBytes), 12);
  headerBytes.copy(out, prefix);
  for (const part of parts) out.set(part.bytes, bodyStart + (sections[part.name]?.[0] ?? 0));
  return out;
}

const ELEMENT: Record<string, { bytes: number; make: (buffer: ArrayBuffer, offset: number, count: number) => Typed }> = {
  ids: { bytes: 4, make: (b, o, n) => new Int32Array(b, o, n) },
  revisions: { bytes: 8, make: (b, o, n) => new Float64Array(b, o, n) },
  statuses: { bytes: 1, make: (b, o, n) => new Uint8Array(b, o, n) },
  hasVector: { bytes: 1, make: (b, o, n) => new Uint8Array(b, o, n) },
  scales: { bytes: 4, make: (b, o, n) => new Float32Array(b, o, n) },
  norms: { bytes: 4, make: (b, o, n) => new Float32Array(b, o, n) },
  signatures: { bytes: 4, make: (b, o, n) => new Uint32Array(b, o, n) },
  vectors: { bytes: 1, make: (b, o, n) => new Int8Array(b, o, n) },
  "postings.offsets": { bytes: 4, make: (b, o, n) => new Int32Array(b, o, n) },
  "postings.slots": { bytes: 4, make: (b, o, n) => new Int32Array(b, o, n) },
  "postings.weights": { bytes: 1, make: (b, o, n) => new Uint8Array(b, o, n) },
  tags: { bytes: 4, make: (b, o, n) => new Int32Array(b, o, n) },
  text: { bytes: 1, make: (b, o, n) => new Uint8Array(b, o, n) },
};

/**
 * The snapshot in `bytes` when it is a whole, well-formed snapshot of `model` at `dimension`
 * (views into `bytes`, no copy); otherwise undefined, with the reason in `why`.
 */
export function decodeIndexSnapshot(
  bytes: Uint8Array,
  model: string,
  dimension: number,
  why: (reason: string) => void = () => undefined,
): IndexSnapshot | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 16 || buffer.toString("latin1", 0, 8) !== MAGIC) return void why("not a search index snapshot");
  const headerLength = buffer.readUInt32LE(8);
  if (16 + headerLength > buffer.length) return void why("header cut short");
  const headerBytes = buffer.subarray(16, 16 + headerLength);
  if (crc32(headerBytes) !== buffer.readUInt32LE(12)) return void why("header checksum differs");
  let header: Header;
  try {
    header = JSON.parse(headerBytes.toString("utf8")) as Header;
  } catch {
    return void why("header is not JSON");
  }
  if (header.format !== FORMAT) return void why(`format ${header.format}, not ${FORMAT}`);
  if (header.model !== model || header.dimension !== dimension) return void why(`snapshot of ${header.model}/${header.dimension}`);
  const bodyStart = Math.ceil((16 + headerLength) / 8) * 8;
  if (bodyStart + header.body !== buffer.length) return void why(`length ${buffer.length}, expected ${bodyStart + header.body}`);
  // Typed views need aligned offsets: copy once into an aligned buffer when the read one is not.
  const aligned = (bytes.byteOffset + bodyStart) % 8 === 0 ? bytes : new Uint8Array(bytes);
  const base = aligned.byteOffset + bodyStart;
  const views: Record<string, Typed> = {};
  for (const [name, element] of Object.entries(ELEMENT)) {
    const section = header.sections[name];
    if (!section) return void why(`section ${name} missing`);
    const [offset, count] = section;
    if (offset < 0 || count < 0 || offset + count * element.bytes > header.body) return void why(`section ${name} out of bounds`);
    views[name] = element.make(aligned.buffer as ArrayBuffer, base + offset, count);
  }
  const used = header.used;
  const words = (views.signatures?.length ?? 0) / Math.max(1, used);
  const sized = (name: string, per: number) => views[name]?.length === used * per;
  if (!["ids", "revisions", "statuses", "hasVector", "scales", "norms"].every((name) => sized(name, 1)) || !sized("vectors", dimension)) {
    return void why("array lengths disagree");
  }
  if (used > 0 && !Number.isInteger(words)) return void why("signature length disagrees");
  let text: { tags: string[]; terms: string[] };
  try {
    text = JSON.parse(Buffer.from(views.text as Uint8Array<ArrayBuffer>).toString("utf8")) as { tags: string[]; terms: string[] };
  } catch {
    return void why("tags and terms are not JSON");
  }
  const offsets = views["postings.offsets"] as Int32Array<ArrayBuffer>;
  const slotTags = views.tags as Int32Array<ArrayBuffer>;
  if (slotTags.length !== used || offsets.length !== text.terms.length + 1) return void why("tags or terms disagree");
  const tags = new Array<string>(used);
  for (let slot = 0; slot < used; slot++) {
    const set = text.tags[slotTags[slot] as number];
    if (set === undefined) return void why("tag set out of bounds");
    tags[slot] = set;
  }
  return {
    model,
    dimension,
    library: String(header.library),
    fingerprint: header.fingerprint,
    used,
    ids: views.ids as Int32Array<ArrayBuffer>,
    revisions: views.revisions as Float64Array<ArrayBuffer>,
    statuses: views.statuses as Uint8Array<ArrayBuffer>,
    hasVector: views.hasVector as Uint8Array<ArrayBuffer>,
    scales: views.scales as Float32Array<ArrayBuffer>,
    norms: views.norms as Float32Array<ArrayBuffer>,
    signatures: views.signatures as Uint32Array<ArrayBuffer>,
    vectors: views.vectors as Int8Array<ArrayBuffer>,
    tags,
    terms: text.terms,
    postings: {
      offsets,
      slots: views["postings.slots"] as Int32Array<ArrayBuffer>,
      weights: views["postings.weights"] as Uint8Array<ArrayBuffer>,
    },
  };
}
