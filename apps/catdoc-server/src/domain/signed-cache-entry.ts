/**
 * One file of CatDoc's caches in `.catdoc/cache/` (the parsed-model cache, ./parsed-cache.ts, and
 * the validation cache, ./validate/validation-cache.ts): a first line of JSON, the header, which
 * says what the entry holds, then the data. The header carries the data's length and an
 * HMAC-SHA256 of the rest of the header and of the data, made with a secret of this user kept
 * outside every project (`cacheSecretFile()`): a truncated, corrupt or foreign entry — one a
 * project brings along, or one anything but this user's own CatDoc wrote — is ignored, never
 * believed. Entries are written with core's writeFileAtomic (a reader sees a whole entry or none;
 * concurrent writers each write a whole one).
 */
import { createHmac, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "@local-mcp/core/files";
import type { ProjectPaths } from "./paths.js";

/** The longest first line an entry may have. */
const MAX_HEADER_BYTES = 4096;

/** What every header holds besides its own fields. */
interface Signature {
  payloadBytes: number;
  /** HMAC-SHA256 (hex), with this user's secret, of the header's other fields and of the data. */
  payloadMac: string;
}

/** `<root>/.catdoc/cache`: the folder (a `.gitignore` in it keeps it out of git). */
export function cacheDir(paths: ProjectPaths): string {
  return join(paths.catdocDir, "cache");
}

/** Where this user's cache secret lives: outside every project, so no project can bring it. */
export function cacheSecretFile(): string {
  return join(homedir(), ".cache", "local-mcp", "catdoc-cache.key");
}

const SECRET_TEXT = /^[0-9a-f]{64}$/;
let secret: Promise<Buffer | undefined> | undefined;

/** This user's secret (made on first use, readable by the user alone); undefined when it cannot be had: no cache then. */
function cacheSecret(): Promise<Buffer | undefined> {
  secret ??= (async () => {
    const file = cacheSecretFile();
    const read = async () => {
      const text = (await readFile(file, "utf8")).trim();
      return SECRET_TEXT.test(text) ? Buffer.from(text, "hex") : undefined;
    };
    try {
      return await read();
    } catch {
      // None yet: make one. Two processes doing so at once each write a whole one; the later wins,
      // and an entry made with the other is only a miss.
    }
    try {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await writeFileAtomic(file, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
      return await read();
    } catch {
      return undefined;
    }
  })();
  return secret;
}

/** The MAC of a header's fields (in the order written; JSON gives a header back exactly) and the data. */
function mac(key: Buffer, fields: Readonly<Record<string, unknown>>, payload: Uint8Array): string {
  return createHmac("sha256", key).update(JSON.stringify(fields)).update("\n").update(payload).digest("hex");
}

/**
 * The header and data of the entry in `file` when it is whole, signed with this user's secret, and
 * `accept` takes its header; otherwise undefined (never throws).
 */
export async function readSignedEntry<Header extends Readonly<Record<string, unknown>>>(
  file: string,
  accept: (header: Readonly<Record<string, unknown>>) => header is Header,
): Promise<{ header: Header; payload: Buffer } | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  const newline = bytes.subarray(0, MAX_HEADER_BYTES).indexOf(0x0a);
  if (newline < 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.subarray(0, newline).toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const { payloadBytes, payloadMac, ...fields } = parsed as Partial<Signature> & Record<string, unknown>;
  if (typeof payloadBytes !== "number" || typeof payloadMac !== "string" || !accept(fields)) return undefined;
  const payload = bytes.subarray(newline + 1);
  if (payload.length !== payloadBytes) return undefined;
  const secretKey = await cacheSecret();
  if (secretKey === undefined || mac(secretKey, fields, payload) !== payloadMac) return undefined;
  return { header: fields, payload };
}

/**
 * Writes the entry atomically (replacing the file's previous one). Returns whether it was written:
 * a project whose folder cannot be written (read-only, full disk) simply has no cache.
 */
export async function writeSignedEntry(
  paths: ProjectPaths,
  file: string,
  header: Readonly<Record<string, unknown>>,
  payload: Uint8Array,
): Promise<boolean> {
  try {
    const secretKey = await cacheSecret();
    if (secretKey === undefined) return false;
    const signed = { ...header, payloadBytes: payload.length, payloadMac: mac(secretKey, header, payload) };
    const dir = cacheDir(paths);
    // mkdir answers the folder's path only when it created it: then it gets its .gitignore.
    if ((await mkdir(dir, { recursive: true })) !== undefined) {
      await writeFile(join(dir, ".gitignore"), "# CatDoc's caches (safe to delete)\n*\n");
    }
    // Not flushed to disk: an entry lost or torn by a crash fails its check on reading, a miss.
    await writeFileAtomic(file, Buffer.concat([Buffer.from(`${JSON.stringify(signed)}\n`, "utf8"), payload]), { durable: false });
    return true;
  } catch {
    return false;
  }
}
