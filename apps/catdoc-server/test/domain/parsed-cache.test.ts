/**
 * The parsed-YAML cache (src/domain/parsed-cache.ts) through the store: a second store (a fresh
 * process, as far as the cache can tell) builds its project from the cache without parsing; the
 * cache never serves other content (an edit of the same size and mtime is read fresh, an entry
 * copied from another project is not used); a corrupt, truncated or foreign entry is ignored and
 * replaced; errors carry the same positions with and without the cache; validation verdicts are
 * the same.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { mkdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CatDocParseError, CatDocStore, contentVersion, indexProject, validateProject } from "../../src/domain/index.js";
import {
  MIN_CACHED_BYTES,
  PARSED_CACHE_FORMAT,
  SCHEMA_LIBRARY,
  YAML_PARSER,
  parsedCacheFile,
  readParsedCache,
  writeParsedCache,
} from "../../src/domain/parsed-cache.js";
import { schemaFingerprint } from "../../src/domain/schema-fingerprint.js";
import { writeGeneratedProject } from "../../src/testing/generate-project.js";
import { useTempDirs, writeProject } from "./helpers.js";

const tempDir = useTempDirs();
const SIZE = { objects: 150, morphisms: 750, functors: 3, naturalTransformations: 1, seed: 11 };

/** A generated project above the size the cache starts at; returns its root and category.yaml's text. */
async function bigProject(): Promise<{ root: string; text: string }> {
  const root = await tempDir();
  const text = await writeGeneratedProject(root, SIZE);
  expect(Buffer.byteLength(text)).toBeGreaterThan(MIN_CACHED_BYTES);
  return { root, text };
}

const categoryFile = (root: string) => join(root, ".catdoc", "category.yaml");

/** What a load gives: the error's code, message and details, or the model. */
async function outcome(store: CatDocStore): Promise<unknown> {
  try {
    return { model: (await store.load()).model };
  } catch (error) {
    if (!(error instanceof CatDocParseError)) throw error;
    return { error: { message: error.message, details: error.details } };
  }
}

describe("the parsed-YAML cache", () => {
  it("is written by the first load and used by the next store, which parses no YAML; same model, same verdict", async () => {
    const { root } = await bigProject();
    const first = new CatDocStore(root);
    const parsed = await first.load();
    expect(first.parses).toEqual({ cache: 0, yaml: 1 });
    expect((await stat(parsedCacheFile(first.paths))).size).toBeGreaterThan(0);
    expect(await readFile(join(root, ".catdoc", "cache", ".gitignore"), "utf8")).toContain("*");
    expect(await readParsedCacheHeader(root)).toContain('"encoding":"json"'); // JSON holds this model exactly

    const second = new CatDocStore(root);
    const cached = await second.load();
    expect(second.parses).toEqual({ cache: 1, yaml: 0 });
    expect(cached.model).toEqual(parsed.model);
    expect(cached.config).toEqual(parsed.config);
    expect(cached.version).toBe(parsed.version);
    expect(validateProject(indexProject(cached.model))).toEqual(validateProject(indexProject(parsed.model)));

    const uncached = new CatDocStore(root, { parse: { cache: false } });
    expect((await uncached.load()).model).toEqual(parsed.model);
    expect(uncached.parses).toEqual({ cache: 0, yaml: 1 });
  });

  it("is never stale: a change of the same size with the same mtime is parsed fresh", async () => {
    const { root, text } = await bigProject();
    const file = categoryFile(root);
    const when = new Date("2026-01-01T00:00:00Z"); // whole seconds: every file system keeps them exactly
    await utimes(file, when, when);
    await new CatDocStore(root).load();
    const before = await stat(file);
    // The first object's title gains a letter, the second's loses one: the same size.
    const first = text.indexOf("title: ") + "title: ".length;
    const second = text.indexOf("title: ", first) + "title: ".length;
    const changed = `${text.slice(0, first)}X${text.slice(first, second)}${text.slice(second + 1)}`;
    expect(changed.length).toBe(text.length);
    expect(changed).not.toBe(text);
    await writeFile(file, changed);
    await utimes(file, when, when);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    expect((await stat(file)).size).toBe(before.size);

    const store = new CatDocStore(root);
    const project = await store.load();
    expect(store.parses).toEqual({ cache: 0, yaml: 1 });
    expect(project.version).toBe(contentVersion(Buffer.from(changed)));
    expect(project.model).toEqual((await new CatDocStore(root, { parse: { cache: false } }).load()).model);
    expect(project.model.categories[0]?.objects[0]?.title.startsWith("X")).toBe(true);
  });

  it("keys on config.yaml too: a changed config.yaml is read fresh", async () => {
    const { root } = await bigProject();
    await writeFile(join(root, ".catdoc", "config.yaml"), "project:\n  name: First\n");
    expect((await new CatDocStore(root).load()).settings.projectName).toBe("First");
    await writeFile(join(root, ".catdoc", "config.yaml"), "project:\n  name: Other\n");
    const store = new CatDocStore(root);
    expect((await store.load()).settings.projectName).toBe("Other");
    expect(store.parses).toEqual({ cache: 0, yaml: 1 });
    await rm(join(root, ".catdoc", "config.yaml"));
    const without = new CatDocStore(root);
    expect((await without.load()).settings.projectName).toBe(root.split("/").at(-1));
    expect(without.parses).toEqual({ cache: 0, yaml: 1 });
  });

  it("does not use an entry made for another project's content", async () => {
    const a = await bigProject();
    const b = await tempDir();
    await writeGeneratedProject(b, { ...SIZE, seed: 12 });
    await new CatDocStore(a.root).load();
    await mkdir(join(b, ".catdoc", "cache"), { recursive: true });
    await writeFile(
      join(b, ".catdoc", "cache", "parsed-yaml.cache"),
      await readFile(join(a.root, ".catdoc", "cache", "parsed-yaml.cache")),
    );
    const store = new CatDocStore(b);
    const project = await store.load();
    expect(store.parses).toEqual({ cache: 0, yaml: 1 });
    expect(project.model).toEqual((await new CatDocStore(b, { parse: { cache: false } }).load()).model);
  });

  it.each([
    ["truncated", (bytes: Buffer) => bytes.subarray(0, bytes.length - 100)],
    ["a flipped byte in the data", (bytes: Buffer) => Buffer.from(bytes.map((byte, i) => (i === bytes.length - 50 ? byte ^ 1 : byte)))],
    ["not an entry at all", () => Buffer.from("garbage\n\u0000\u0001")],
    ["empty", () => Buffer.alloc(0)],
    ["another format", (bytes: Buffer) => Buffer.from(bytes.toString("latin1").replace(PARSED_CACHE_FORMAT, "someone-else"), "latin1")],
    ["another schema library", (bytes: Buffer) => Buffer.from(bytes.toString("latin1").replace(SCHEMA_LIBRARY, "zod@0.0.1"), "latin1")],
    ["another parser", (bytes: Buffer) => Buffer.from(bytes.toString("latin1").replace(YAML_PARSER, "yaml@0.0.1"), "latin1")],
    [
      "another format version",
      (bytes: Buffer) => Buffer.from(bytes.toString("latin1").replace(/"version":\d+/, '"version":999'), "latin1"),
    ],
  ])("ignores an entry that is %s, and replaces it", async (_label, spoil) => {
    const { root } = await bigProject();
    const expected = (await new CatDocStore(root).load()).model;
    const file = join(root, ".catdoc", "cache", "parsed-yaml.cache");
    await writeFile(file, spoil(await readFile(file)));
    const store = new CatDocStore(root);
    expect((await store.load()).model).toEqual(expected);
    expect(store.parses).toEqual({ cache: 0, yaml: 1 });
    const next = new CatDocStore(root);
    expect((await next.load()).model).toEqual(expected);
    expect(next.parses).toEqual({ cache: 1, yaml: 0 });
  });

  it("does not use an entry a project brings: changed data with its length and checksum made consistent is ignored", async () => {
    // The cache sits in the project's folder, which may come from anyone: only this user's own parses
    // (their secret, outside every project) can make an entry that is used.
    const { root } = await bigProject();
    const expected = (await new CatDocStore(root).load()).model;
    const file = join(root, ".catdoc", "cache", "parsed-yaml.cache");
    const bytes = await readFile(file);
    const newline = bytes.indexOf(0x0a);
    const header = JSON.parse(bytes.subarray(0, newline).toString("utf8")) as Record<string, unknown>;
    expect(header.encoding).toBe("json");
    const title = /"title":"([^"]+)"/.exec(bytes.subarray(newline + 1).toString("utf8"))![1]!;
    const forged = Buffer.from(
      bytes
        .subarray(newline + 1)
        .toString("utf8")
        .replace(`"title":"${title}"`, '"title":"planted"'),
    );
    // Whatever checksum the format carries, the forger can compute it: only a keyed one stops this.
    const planted = {
      ...header,
      payloadBytes: forged.length,
      ...("payloadSha256" in header ? { payloadSha256: createHash("sha256").update(forged).digest("hex") } : {}),
    };
    await writeFile(file, Buffer.concat([Buffer.from(`${JSON.stringify(planted)}\n`), forged]));
    const store = new CatDocStore(root);
    expect((await store.load()).model).toEqual(expected);
    expect(store.parses).toEqual({ cache: 0, yaml: 1 });
    expect(JSON.stringify((await new CatDocStore(root).load()).model)).not.toContain('"planted"');
  });

  it("does not use an entry made by other schemas, whatever it holds", async () => {
    const { root } = await bigProject();
    const store = new CatDocStore(root);
    const project = await store.load();
    const key = { category: project.version, config: null, schemas: "schemas of another CatDoc" };
    expect(await writeParsedCache(store.paths, key, { category: { categories: "not a model" }, config: {} })).toBe(true);
    expect(await readParsedCache(store.paths, key)).toEqual({ category: { categories: "not a model" }, config: {} });
    const fresh = new CatDocStore(root);
    expect((await fresh.load()).model).toEqual(project.model);
    expect(fresh.parses).toEqual({ cache: 0, yaml: 1 });
  });

  it("fingerprints schemas by everything that shapes their output: types, keys, checks, function sources", () => {
    const fingerprint = (schema: z.ZodType) => schemaFingerprint([schema], "tag");
    const field = (fn: (value: unknown) => unknown, min = 1) => z.preprocess(fn, z.string().min(min));
    const base = fingerprint(z.object({ id: field((value) => value ?? "") }));
    expect(fingerprint(z.object({ id: field((value) => value ?? "") }))).toBe(base);
    expect(fingerprint(z.object({ id: field((value) => value ?? "x") }))).not.toBe(base);
    expect(fingerprint(z.object({ id: field((value) => value ?? "", 2) }))).not.toBe(base);
    expect(fingerprint(z.object({ key: field((value) => value ?? "") }))).not.toBe(base);
    expect(fingerprint(z.looseObject({ id: field((value) => value ?? "") }))).not.toBe(base);
    expect(fingerprint(z.object({ id: field((value) => value ?? "").optional() }))).not.toBe(base);
    expect(schemaFingerprint([z.object({ id: field((value) => value ?? "") })], "other tag")).not.toBe(base);
  });

  it("reports a file's errors at the same line and column with and without the cache, and caches no invalid file", async () => {
    const { root, text } = await bigProject();
    await new CatDocStore(root).load(); // an entry for the valid version exists
    const lines = text.split("\n");
    const at = lines.findLastIndex((line) => line.trimStart().startsWith("title: "));
    expect(at).toBeGreaterThan(100);
    lines[at] = lines[at]!.replace(/title: .*/, "title: [not, text]");
    await writeFile(categoryFile(root), lines.join("\n"));

    const withCache = await outcome(new CatDocStore(root));
    const again = await outcome(new CatDocStore(root));
    const without = await outcome(new CatDocStore(root, { parse: { cache: false } }));
    expect(withCache).toMatchObject({ error: { message: expect.stringContaining(`category.yaml:${at + 1}:`) as unknown } });
    expect(again).toEqual(withCache);
    expect(without).toEqual(withCache);
    const invalidVersion = contentVersion(Buffer.from(lines.join("\n")));
    expect(await readParsedCacheHeader(root)).not.toContain(invalidVersion);

    await writeFile(categoryFile(root), "categories: [\n"); // a syntax error: never cached either
    const broken = await outcome(new CatDocStore(root));
    expect(await outcome(new CatDocStore(root, { parse: { cache: false } }))).toEqual(broken);
    expect(broken).toMatchObject({ error: { message: expect.stringContaining("category.yaml:") as unknown } });
  });

  it("keeps models exactly, values JSON cannot hold included (.inf, -0, an empty optional field)", async () => {
    const { root, text } = await bigProject();
    await writeFile(categoryFile(root), text.replace("rank: 0\n", "rank: .inf\n").replace("rank: 1\n", "rank: -0\n"));
    const parsed = (await new CatDocStore(root).load()).model;
    const store = new CatDocStore(root);
    const objects = (await store.load()).model.categories[0]?.objects;
    expect(store.parses).toEqual({ cache: 1, yaml: 0 });
    expect(await readParsedCacheHeader(root)).toContain('"encoding":"v8"');
    expect(objects?.[0]?.metadata?.["rank"]).toBe(Infinity);
    expect(Object.is(objects?.[1]?.metadata?.["rank"], -0)).toBe(true);
    expect((await store.load()).model).toStrictEqual(parsed);
  });

  it("leaves small files uncached, and works where the cache cannot be written", async () => {
    const small = await writeProject(await tempDir(), "categories: []\n");
    const store = new CatDocStore(small);
    await store.load();
    expect(store.parses).toEqual({ cache: 0, yaml: 1 });
    await expect(stat(join(small, ".catdoc", "cache"))).rejects.toThrow();

    const { root } = await bigProject();
    await writeFile(join(root, ".catdoc", "cache"), "a file where the cache folder would be");
    const blocked = new CatDocStore(root);
    const project = await blocked.load();
    expect(project.model.categories).toHaveLength(SIZE.functors);
    const next = new CatDocStore(root);
    await next.load();
    expect(next.parses).toEqual({ cache: 0, yaml: 1 });
  });

  it("is safe under concurrent loads: every store gets the same model, and the entry left is whole", async () => {
    const { root } = await bigProject();
    const expected = (await new CatDocStore(root, { parse: { cache: false } }).load()).model;
    const stores = Array.from({ length: 6 }, () => new CatDocStore(root));
    const projects = await Promise.all(stores.map((store) => store.load()));
    for (const project of projects) expect(project.model).toEqual(expected);
    const next = new CatDocStore(root);
    expect((await next.load()).model).toEqual(expected);
    expect(next.parses).toEqual({ cache: 1, yaml: 0 });
  });

  it("one store parses a version once, however many loads ask for it at the same time", async () => {
    const { root } = await bigProject();
    const store = new CatDocStore(root, { parse: { cache: false } });
    const [a, b, c] = await Promise.all([store.load(), store.load(), store.load()]);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(store.parses).toEqual({ cache: 0, yaml: 1 });
  });

  it("names the yaml parser and the zod this app installs (an upgrade invalidates older entries)", () => {
    const require = createRequire(import.meta.url);
    expect(YAML_PARSER).toBe(`yaml@${(require("yaml/package.json") as { version: string }).version}`);
    expect(SCHEMA_LIBRARY).toBe(`zod@${(require("zod/package.json") as { version: string }).version}`);
  });
});

/** The first line of the project's entry: what it holds. */
async function readParsedCacheHeader(root: string): Promise<string> {
  return (await readFile(join(root, ".catdoc", "cache", "parsed-yaml.cache"), "latin1")).split("\n")[0] ?? "";
}
