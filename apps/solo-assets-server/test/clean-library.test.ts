/**
 * The clean-library checks in process, without a server: the secret scan (each key pattern found
 * on its line; ordinary code — the examples, regular expressions, URLs, checksums, alphabets —
 * not flagged), Python's parser on saved code (the normalised fingerprint, dangerous calls through
 * aliases, the solo_lib imports composition takes), bundling's clash rule, and the line limit
 * fixed by `ruff format` in both linters (the binary and the WebAssembly build).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findOnPath, probeTool } from "../src/domain/process/find-executable.js";
import { RuffBinaryLinter } from "../src/domain/gate/lint/ruff-binary-linter.js";
import { RuffWasmLinter } from "../src/domain/gate/lint/ruff-wasm-linter.js";
import type { Linter } from "../src/domain/gate/lint/linter.js";
import { scanSecrets } from "../src/domain/gate/secret-scan.js";
import { bundleModule } from "../src/domain/library/module-bundle.js";
import type { ParsedSource } from "../src/domain/python/source-analysis.js";
import { analyzeSources } from "../src/domain/python/source-analysis.js";

const EXAMPLES = fileURLToPath(new URL("../../../examples/solo-assets/", import.meta.url));
const ENV = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));

describe("the secret scan", () => {
  const keys: [string, string][] = [
    ['STRIPE = "sk-live-51HqLyjWDarjtT1zdp7dc"', "live secret key"],
    ['client = OpenAI(api_key="sk-proj-AbCdEfGhIjKlMnOpQrStUvWx")', "sk-"],
    ['AWS_ID = "AKIAIOSFODNN7EXAMPLE"', "AWS"],
    ['TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"', "GitHub"],
    ['slack = "xoxb-1234567890-abcdefghij"', "Slack"],
    ['KEY = """-----BEGIN RSA PRIVATE KEY-----', "private key"],
    ['    password = "hunter2!x"', "password"],
    ['SIGNING = "Zx8fQ2pLk9Vb3Rt7Wm1Yc5Hn6Jd4Gs0AeuTqiP"', "high-entropy"],
  ];
  it.each(keys)("refuses %s on its line", (line, kind) => {
    const code = `import os\n\n\n${line}\n`;
    const found = scanSecrets(code);
    expect(found).toHaveLength(1);
    expect(found[0]?.line).toBe(4);
    expect(found[0]?.kind).toContain(kind);
    // Only the start of the value is shown.
    expect(found[0]?.preview.length).toBeLessThanOrEqual(7);
  });

  it("finds nothing in ordinary code", () => {
    const examples = readdirSync(EXAMPLES)
      .filter((f) => f.endsWith(".py"))
      .map((f) => readFileSync(join(EXAMPLES, f), "utf8"));
    expect(examples).toHaveLength(4);
    const ordinary = [
      'ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"',
      'EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
      'URL = "https://api.example.com/v1/users/{user_id}/repositories?per_page=100"',
      'PATTERN = re.compile(r"^(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})T")',
      'ID = "550e8400-e29b-41d4-a716-446655440000"',
      'token = "-"',
      'password = ""',
      'password = os.environ["DB_PASSWORD"]',
      "def check(password: str, secret_key: str) -> bool:",
      'MESSAGE = "Please set the OPENAI_API_KEY environment variable before calling this function."',
      'CAMEL = "parseHttpResponseHeadersFromRawSocketBuffer"',
      'b64 = base64.b64encode(b"hello world").decode("ascii")',
      'skeleton = "sk-"',
    ].join("\n");
    expect(scanSecrets([...examples, ordinary].join("\n"))).toEqual([]);
  });
});

describe("Python's parser on saved code", () => {
  const SLUGIFY = readFileSync(join(EXAMPLES, "slugify.py"), "utf8");

  it("gives a copy renamed, redocumented and reformatted the same fingerprint, and different code another", async () => {
    const copy = `import re\nimport unicodedata\ndef make_slug(value, sep="-"):\n    '''Another docstring.'''\n${SLUGIFY.split("\n")
      .slice(SLUGIFY.split("\n").findIndex((l) => l.includes('"""', l.indexOf('"""') + 3) || l.trim().endsWith('"""')) + 1)
      .join("\n")
      .replaceAll("text", "value")
      .replaceAll("separator", "sep")}`;
    const sources = [
      SLUGIFY,
      copy,
      "def size(items: list[int]) -> int:\n    return len(items)\n",
      "def total(items: list[int]) -> int:\n    return sum(items)\n",
    ];
    const [a, b, c, d] = await analyzeSources("python3", ENV, sources);
    if (!a?.ok || !b?.ok || !c?.ok || !d?.ok) throw new Error("a source did not parse");
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(c.fingerprint).not.toBe(d.fingerprint);
  });

  it("flags eval, exec, os.system and subprocess with shell=True, through aliases, not shell=False", async () => {
    const code = [
      "import os",
      "import subprocess as sp",
      "from os import system as run_shell",
      "from subprocess import check_output",
      "",
      "def f(cmd: str) -> None:",
      "    eval(cmd)",
      "    exec(cmd)",
      "    os.system(cmd)",
      "    run_shell(cmd)",
      "    sp.run(cmd, shell=True)",
      "    check_output(cmd, shell=True)",
      "    sp.run([cmd], shell=False)",
      "    sp.run([cmd])",
    ].join("\n");
    const [analysis] = await analyzeSources("python3", ENV, [code]);
    expect(analysis?.ok && analysis.dangerous).toEqual([
      { line: 7, call: "eval" },
      { line: 8, call: "exec" },
      { line: 9, call: "os.system" },
      { line: 10, call: "os.system" },
      { line: 11, call: "subprocess.run(shell=True)" },
      { line: 12, call: "subprocess.check_output(shell=True)" },
    ]);
  });

  it("takes `from solo_lib import a, b` and tells the other forms apart", async () => {
    const [good, bad, broken] = await analyzeSources("python3", ENV, [
      "from solo_lib import a, b\n\n\ndef f() -> int:\n    return a() + b()\n",
      "import solo_lib\nfrom solo_lib import a as x\nfrom solo_lib.inner import b\n\n\ndef f() -> int:\n    from solo_lib import c\n    return 1\n",
      "def f(:\n",
    ]);
    expect(good?.ok && good.library_imports).toEqual([
      { line: 1, name: "a" },
      { line: 1, name: "b" },
    ]);
    expect(bad?.ok && bad.bad_library_imports.map((i) => i.line)).toEqual([1, 2, 3, 7]);
    expect(broken).toEqual({ ok: false });
  });

  it("bundles a statement written alike once, and refuses two different ones binding a name", async () => {
    const sources = [
      'from typing import TypeVar\n\nT = TypeVar("T")\n\n\ndef first(items: list[T]) -> T:\n    return items[0]\n',
      'from typing import TypeVar\n\nT = TypeVar("T")\n\n\ndef last(items: list[T]) -> T:\n    return items[-1]\n',
      "LIMIT = 3\n\n\ndef first_three(items: list[int]) -> list[int]:\n    return items[:LIMIT]\n",
      "LIMIT = 4\n\n\ndef first_four(items: list[int]) -> list[int]:\n    return items[:LIMIT]\n",
    ];
    const analyses = (await analyzeSources("python3", ENV, sources)) as ParsedSource[];
    const part = (i: number, name: string) => ({ name, version: 1, code: sources[i] ?? "", analysis: analyses[i] as ParsedSource });
    const text = bundleModule([part(0, "first"), part(1, "last")], ["# two"]);
    expect(text.match(/T = TypeVar/g)).toHaveLength(1);
    expect(text.match(/from typing import TypeVar/g)).toHaveLength(1);
    expect(() => bundleModule([part(2, "first_three"), part(3, "first_four")], [])).toThrow(/'LIMIT' \(in first_three and first_four\)/);
  });
});

describe("the line limit", () => {
  const LONG = `def describes(first_value: int, second_value: int, third_value: int, fourth: int) -> str:
    """Describe four values."""
    return f"{first_value} {second_value} {third_value} {fourth}"
`;
  const linters: { name: string; make: (length: number) => Promise<Linter> }[] = [
    { name: "ruff-wasm", make: async (length) => new RuffWasmLinter(length) },
    {
      name: "ruff binary",
      make: async (length) => {
        const path = findOnPath("ruff", ENV.PATH);
        const ruff = path ? await probeTool(path, [], ["--version"], ENV) : undefined;
        if (!ruff) throw new Error("the ruff binary is not installed (pip install ruff)");
        return new RuffBinaryLinter(ruff, ENV, length);
      },
    },
  ];
  it.each(linters)("$name reformats an 89-column line at 88 and leaves it at 100", async ({ make }) => {
    expect(LONG.split("\n")[0]).toHaveLength(89);
    const signal = new AbortController().signal;
    const at88 = await (await make(88)).lint(LONG, signal);
    expect(at88.errors).toEqual([]);
    expect(at88.reformatted).toBe(true);
    expect(Math.max(...at88.fixedCode.split("\n").map((l) => l.length))).toBeLessThanOrEqual(88);
    const at100 = await (await make(100)).lint(LONG, signal);
    expect(at100.reformatted).toBe(false);
    expect(at100.fixedCode).toBe(LONG);
    // What the formatter cannot shorten still rejects.
    const text = `def banner() -> str:\n    return "${"x".repeat(90)}"\n`;
    expect((await (await make(88)).lint(text, signal)).errors.map((d) => d.code)).toEqual(["E501"]);
  });
});
