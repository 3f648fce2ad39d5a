/**
 * `catdoc export` (issue 17 item 6), in-process through runCli on one small project whose links
 * were reviewed before req-login's document changed (so three links are suspect): the HTML page
 * (escaped, self-contained, rows marked), CSV (RFC 4180, formula cells neutralized), ReqIF 1.2
 * read back with an XML parser, JSON (versioned model), and the refusals that write nothing.
 */
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralizeFormula } from "../../src/domain/export/index.js";
import { runInProcess } from "../cli/run-in-process.js";
import { editDocument, writeTraceProject } from "../domain/change-impact-fixture.js";
import { FORMULA_TITLE, HOSTILE_TITLE, writeExportProject } from "./export-fixture.js";

let base = "";
let root = "";

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "catdoc-export-"));
  root = join(base, "project");
  await mkdir(root);
  await writeExportProject(root);
  expect((await runInProcess(["review", "--all"], root)).code).toBe(0);
  await appendFile(join(root, "docs/req-login.md"), "Users may log in with a passkey.\n");
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function exported(args: string[], file: string): Promise<string> {
  const result = await runInProcess(["export", ...args, "--out", file], root);
  expect(result).toMatchObject({ code: 0, stderr: "" });
  return readFile(join(root, file), "utf8");
}

/** Files in `dir` whose names look like temporary files (core's atomic write: `.<name>.<pid>.<hex>.tmp`). */
async function temporaries(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith(".tmp"));
}

describe("catdoc export --format html", () => {
  it("one self-contained page: project strings escaped, rows marked uncovered / trivially covered / suspect, a summary", async () => {
    const html = await exported(["--format", "html"], "matrix.html");
    // Hostile titles come out as text: no element the document did not make.
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co<br><code>req-login</code>");
    expect(html).toContain("=HYPERLINK(&quot;http://evil&quot;, &quot;a, b&quot;)");
    // Self-contained: inline CSS, nothing loaded from elsewhere.
    expect(html).toMatch(/<style>[^<]+<\/style>/);
    // Self-contained: nothing loaded from elsewhere (links only within the page, the favicon a data: URL).
    expect(html).not.toMatch(/\ssrc=|@import|url\(|<link rel="stylesheet"/);
    expect([...html.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1])).toEqual(["data:,", "#functor-tests"]);
    expect(html).toContain('<tr class="covered suspect"><td>&lt;script&gt;');
    expect(html).toMatch(/<tr class="trivially-covered"><td>Session<br><code>req-session<\/code>/);
    expect(html).toMatch(/<tr class="uncovered"><td>=HYPERLINK/);
    expect(html).toContain("<td>33.3 %</td><td>1</td><td>1</td><td>1</td><td>1</td>");
    expect(html).toContain("<code>req-session-audit</code> → <code>req-audit</code> ↦ <code>id-test-session</code> (identity)");
    expect(html).toContain("through <code>req-login-session</code> (functor)");
    expect(html).toContain("5 links, 5 reviewed, 3 suspect.");
  });
});

describe("catdoc export --format csv", () => {
  it("one row per (functor, source object), RFC 4180 quoting with CRLF, formula cells prefixed with '", async () => {
    const csv = await exported([], "matrix.csv");
    expect(csv).toBe(
      [
        "functor,source_category,target_category,object_id,object_title,image_id,image_title,status,suspect,suspect_links,arrows",
        `tests,requirements,tests,req-login,"<script>alert(""x"")</script> & co",test-login,Login test,covered,yes,tests/req-login req-login-session test-login-session,req-login-session->test-login-session`,
        "tests,requirements,tests,req-session,Session,test-session,Session test,trivially-covered,no,,req-session-audit->id-test-session (identity)",
        `tests,requirements,tests,req-audit,"'=HYPERLINK(""http://evil"", ""a, b"")\nsecond line",,,uncovered,no,,`,
        "",
      ].join("\r\n"),
    );
  });

  it("neutralizes every cell a spreadsheet would run, and only those", () => {
    expect(["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"].map(neutralizeFormula)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\t=1",
      "'\r=1",
    ]);
    expect(["a=1", "1-2", "", "'quoted"].map(neutralizeFormula)).toEqual(["a=1", "1-2", "", "'quoted"]);
  });
});

type XmlNode = Record<string, unknown>;
const list = (value: unknown): XmlNode[] =>
  value === undefined || value === "" ? [] : Array.isArray(value) ? (value as XmlNode[]) : [value as XmlNode];

describe("catdoc export --format reqif", () => {
  it("ReqIF 1.2 that parses as XML: header, types, a SPEC-OBJECT per object, relations that point at them, a specification per category", async () => {
    const xml = await exported(["--format", "reqif"], "matrix.reqif");
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      parseAttributeValue: false,
      parseTagValue: false,
      htmlEntities: true,
    }).parse(xml) as XmlNode;
    const reqif = parsed["REQ-IF"] as XmlNode;
    expect(reqif["xmlns"]).toBe("http://www.omg.org/spec/ReqIF/20110401/reqif.xsd");
    const header = (reqif["THE-HEADER"] as XmlNode)["REQ-IF-HEADER"] as XmlNode;
    expect(header).toMatchObject({ "REQ-IF-VERSION": "1.0", "REQ-IF-TOOL-ID": "CatDoc 0.0.0" });
    const content = (reqif["CORE-CONTENT"] as XmlNode)["REQ-IF-CONTENT"] as XmlNode;
    expect(Object.keys(content)).toEqual(["DATATYPES", "SPEC-TYPES", "SPEC-OBJECTS", "SPEC-RELATIONS", "SPECIFICATIONS"]);

    const types = content["SPEC-TYPES"] as XmlNode;
    const definitionsOf = (type: XmlNode) =>
      new Set(list((type["SPEC-ATTRIBUTES"] as XmlNode)["ATTRIBUTE-DEFINITION-STRING"]).map((d) => d["IDENTIFIER"]));
    const objectType = types["SPEC-OBJECT-TYPE"] as XmlNode;
    const relationTypes = new Map(list(types["SPEC-RELATION-TYPE"]).map((t) => [t["IDENTIFIER"], definitionsOf(t)]));
    expect([...relationTypes.keys()]).toEqual(["type-morphism", "type-mapping"]);

    const objects = list((content["SPEC-OBJECTS"] as XmlNode)["SPEC-OBJECT"]);
    const values = (node: XmlNode) =>
      Object.fromEntries(
        list((node["VALUES"] as XmlNode)["ATTRIBUTE-VALUE-STRING"]).map((v) => [
          (v["DEFINITION"] as XmlNode)["ATTRIBUTE-DEFINITION-STRING-REF"],
          v["THE-VALUE"],
        ]),
      );
    expect(objects.map((o) => values(o)["attribute-foreign-id"])).toEqual([
      "req-login",
      "req-session",
      "req-audit",
      "test-login",
      "test-session",
    ]);
    const login = values(objects[0] as XmlNode);
    expect(login["attribute-name"]).toBe(HOSTILE_TITLE);
    // A multi-line document survives attribute-value normalization (line breaks as character references).
    expect(login["attribute-text"]).toBe("# Login\n\nUsers log in <b>safely</b>.\nUsers may log in with a passkey.\n");
    expect(values(objects[2] as XmlNode)["attribute-name"]).toBe(FORMULA_TITLE);
    for (const object of objects) {
      expect((object["TYPE"] as XmlNode)["SPEC-OBJECT-TYPE-REF"]).toBe(objectType["IDENTIFIER"]);
      for (const definition of Object.keys(values(object))) expect(definitionsOf(objectType).has(definition)).toBe(true);
    }
    const objectIds = new Set(objects.map((o) => o["IDENTIFIER"]));
    expect(objectIds.size).toBe(5);

    // One relation per non-identity morphism (3) and per object mapping (2); every end is a SPEC-OBJECT.
    const relations = list((content["SPEC-RELATIONS"] as XmlNode)["SPEC-RELATION"]);
    expect(relations).toHaveLength(5);
    for (const relation of relations) {
      expect(objectIds.has((relation["SOURCE"] as XmlNode)["SPEC-OBJECT-REF"])).toBe(true);
      expect(objectIds.has((relation["TARGET"] as XmlNode)["SPEC-OBJECT-REF"])).toBe(true);
      const type = relationTypes.get((relation["TYPE"] as XmlNode)["SPEC-RELATION-TYPE-REF"]);
      for (const definition of Object.keys(values(relation))) expect(type?.has(definition)).toBe(true);
    }
    const byForeignId = new Map(relations.map((r) => [Object.entries(values(r)).find(([k]) => k.endsWith("-id"))?.[1], values(r)]));
    expect([...byForeignId.keys()]).toEqual([
      "req-login-session",
      "req-session-audit",
      "test-login-session",
      "tests/req-login",
      "tests/req-session",
    ]);
    expect(byForeignId.get("req-login-session")?.["type-morphism-suspect"]).toBe("yes");
    expect(byForeignId.get("tests/req-login")?.["type-mapping-suspect"]).toBe("yes");
    expect(byForeignId.get("tests/req-session")?.["type-mapping-suspect"]).toBe("no");

    const specifications = list((content["SPECIFICATIONS"] as XmlNode)["SPECIFICATION"]);
    expect(specifications.map((s) => s["LONG-NAME"])).toEqual(["Requirements", "Tests"]);
    const hierarchy = specifications.flatMap((s) => list((s["CHILDREN"] as XmlNode)["SPEC-HIERARCHY"]));
    expect(new Set(hierarchy.map((h) => (h["OBJECT"] as XmlNode)["SPEC-OBJECT-REF"]))).toEqual(objectIds);
  });
});

describe("catdoc export --format json", () => {
  it("the traceability model, versioned: objects, morphisms, functors with coverage rows, suspect links", async () => {
    const model = JSON.parse(await exported(["--functor", "tests"], "model.json")) as Record<string, unknown>;
    expect(model).toMatchObject({
      schema: "catdoc-traceability",
      version: 1,
      functor: "tests",
      summary: { categories: 2, objects: 5, functors: 1, links: 5, reviewed: 5, suspectLinks: 3 },
      functors: [
        {
          id: "tests",
          percent: { covered: 33.3 },
          suspect: 1,
          rows: [
            { objectId: "req-login", status: "covered", image: "test-login", suspect: true },
            {
              objectId: "req-session",
              status: "trivially-covered",
              arrows: [{ morphismId: "req-session-audit", image: "id-test-session", collapsed: true }],
            },
            { objectId: "req-audit", status: "uncovered", image: null, suspect: false },
          ],
        },
      ],
      suspectLinks: [
        { id: "req-login-session", kind: "morphism", changed: ["req-login"], via: null },
        { id: "tests/req-login", kind: "mapping", changed: ["req-login"] },
        { id: "test-login-session", changed: [], via: { linkId: "req-login-session", rule: "functor" } },
      ],
    });
    const categories = model["categories"] as Array<{ id: string; objects: unknown[]; morphisms: Array<{ identity: boolean }> }>;
    expect(categories.map((c) => [c.id, c.objects.length, c.morphisms.filter((m) => !m.identity).length])).toEqual([
      ["requirements", 3, 2],
      ["tests", 2, 1],
    ]);
  });
});

describe("catdoc export --functor", () => {
  it("keeps that functor, its two categories and their suspect links (requirements → design → tests, a requirement changed)", async () => {
    const trace = await writeTraceProject(join(base, "trace"));
    expect((await runInProcess(["review", "--all"], trace)).code).toBe(0);
    await editDocument(trace, "docs/req-login.md");
    const read = async (args: string[]) => {
      expect((await runInProcess(["export", ...args, "--out", "model.json"], trace)).code).toBe(0);
      return JSON.parse(await readFile(join(trace, "model.json"), "utf8")) as {
        categories: Array<{ id: string }>;
        suspectLinks: Array<{ id: string }>;
      };
    };
    const whole = (await read([])).suspectLinks.map((s) => s.id);
    const tests = await read(["--functor", "tests"]);
    expect(tests.categories.map((c) => c.id)).toEqual(["design", "tests"]);
    const kept = tests.suspectLinks.map((s) => s.id);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(whole.filter((id) => /^(design-|test-|tests\/)/.test(id)));
    expect(whole.some((id) => id.startsWith("designs/"))).toBe(true);
  });
});

describe("where catdoc export writes", () => {
  it("replaces an existing file atomically and leaves no temporary file", async () => {
    await writeFile(join(root, "old.csv"), "stale");
    const result = await runInProcess(["export", "--out", "old.csv"], root);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^Replaced old\.csv \(csv, \d+ bytes\): 1 functor\(s\), 5 object\(s\), 3 suspect link\(s\)\n$/);
    expect(await readFile(join(root, "old.csv"), "utf8")).toMatch(/^functor,/);
    expect(await temporaries(root)).toEqual([]);
  });

  it("refuses a path outside the project, through a link, or in .catdoc/, and writes nothing", async () => {
    await symlink(base, join(root, "out-link"));
    const before = await readdir(base);
    for (const [out, message] of [
      ["../outside.html", /^catdoc: out: '\.\.\/outside\.html' is outside the project root/],
      [join(base, "outside.html"), /is outside the project root/],
      ["out-link/outside.html", /^catdoc: out: 'out-link\/outside\.html' resolves outside the project root/],
      [".catdoc/matrix.html", /inside \.catdoc\//],
    ] as const) {
      const result = await runInProcess(["export", "--out", out], root);
      expect(result.code, out).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split("\n")).toHaveLength(2);
    }
    expect(await readdir(base)).toEqual(before);
    expect((await readdir(join(root, ".catdoc"))).filter((name) => name.includes("matrix"))).toEqual([]);
    expect(await temporaries(root)).toEqual([]);
  });

  it("bad usage is exit 2 with one USAGE line: unknown functor, unknown format, no format to infer, no --out", async () => {
    for (const args of [
      ["--functor", "nope", "--out", "x.html"],
      ["--format", "pdf", "--out", "x.pdf"],
      ["--out", "x.txt"],
      ["--format", "html"],
    ]) {
      const result = await runInProcess(["export", ...args], root);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/^catdoc: USAGE: .*\n$/);
    }
    await expect(stat(join(root, "x.html"))).rejects.toThrow(/ENOENT/);
  });

  it("a folder that does not exist is NOT_FOUND, a folder as --out is refused", async () => {
    const missing = await runInProcess(["export", "--out", "nowhere/x.html"], root);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toMatch(/not found in the project/);
    const folder = await runInProcess(["export", "--format", "html", "--out", "docs"], root);
    expect(folder).toMatchObject({ code: 1, stdout: "" });
    expect(folder.stderr).toMatch(/is a folder/);
  });
});
