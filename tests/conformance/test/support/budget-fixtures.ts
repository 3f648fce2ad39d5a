/**
 * Fixtures large enough for token budgets to matter: a generated CatDoc project with thousands of
 * morphisms, the Mochi catalog of this repository, this repository's files for local-model's
 * extraction and analysis, a git repository with hundreds of commits and a dirty work tree, and a
 * solo library of functions saved through the real gate.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Client } from "@modelcontextprotocol/client";
import { REPO_ROOT, SERVER_NODE } from "./servers.js";

export { generateProject, writeGeneratedProject } from "../../../../apps/catdoc-server/src/testing/generate-project.js";

/** Writes the Mochi catalog of this repository (`mochi index`) and returns its path. */
export async function indexThisRepository(dir: string): Promise<string> {
  const catalog = join(dir, "catalog.json");
  // Asynchronously: the test process keeps serving the other suites' clients meanwhile.
  await promisify(execFile)(SERVER_NODE, [
    join(REPO_ROOT, "apps/mochi-server/dist/cli.js"),
    "index",
    REPO_ROOT,
    "--out",
    catalog,
    "--quiet",
  ]);
  return catalog;
}

/** Tracked files of this repository matching git pathspecs (and present in the work tree), relative to its root. */
export function repositoryFiles(...pathspecs: string[]): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--", ...pathspecs], { cwd: REPO_ROOT, encoding: "utf8" });
  return out.split("\0").filter((path) => path.length > 0 && existsSync(join(REPO_ROOT, path)));
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Ada Tester",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada Tester",
  GIT_COMMITTER_EMAIL: "ada@example.com",
};

const AREAS = ["core", "catdoc", "mochi", "solo", "local-model", "docs", "bench", "ci"];
const VERBS = ["fix", "add", "speed up", "simplify", "document", "test", "rename", "harden"];
const THINGS = [
  "the HTTP runner",
  "response levels",
  "the search index",
  "paging",
  "the quality gate",
  "config parsing",
  "the dashboard",
  "error codes",
];

/**
 * A git repository of `commits` commits over `files` source files (written in one `git
 * fast-import`, so it takes milliseconds), a third of them with a body, and then a dirty work
 * tree: modified, staged, deleted, renamed and untracked files.
 */
export async function writeGitHistory(dir: string, commits: number, files: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const git = (args: string[], input?: string) =>
    execFileSync("git", args, { cwd: dir, env: GIT_ENV, input, stdio: ["pipe", "pipe", "ignore"] });
  git(["init", "-q", "-b", "main"]);
  const contents = Array.from({ length: files }, (_, i) => `// module ${i}\nexport const value${i} = ${i};\n`);
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let c = 0; c < commits; c += 1) {
    const subject = `${AREAS[c % AREAS.length]}: ${VERBS[(c * 3) % VERBS.length]} ${THINGS[(c * 5) % THINGS.length]} (#${c + 1})`;
    const body =
      c % 3 === 0
        ? `\n\nWhy: the old behaviour surprised callers under load.\nHow: one place now owns it; tests cover the edge cases of change ${c}.`
        : "";
    const when = 1_735_000_000 + c * 3_600;
    chunks.push(
      `commit refs/heads/main\nmark :${c + 1}\nauthor Ada Tester <ada@example.com> ${when} +0000\ncommitter Ada Tester <ada@example.com> ${when} +0000\n`,
    );
    chunks.push(data(`${subject}${body}`));
    if (c > 0) chunks.push(`from :${c}\n`);
    for (const f of c === 0 ? contents.keys() : [c % files, (c * 7) % files]) {
      contents[f] += `export const change${c} = "${subject.replaceAll('"', "'")}";\n`;
      chunks.push(`M 644 inline src/module-${f}.ts\n${data(contents[f] ?? "")}`);
    }
    chunks.push("\n");
  }
  git(["fast-import", "--quiet"], chunks.join(""));
  git(["reset", "-q", "--hard", "main"]);
  for (let f = 0; f < files; f += 1) {
    const path = join(dir, "src", `module-${f}.ts`);
    if (f % 5 === 0) await writeFile(path, `${contents[f] ?? ""}export const dirty${f} = true;\n`);
    if (f % 10 === 1) git(["rm", "-q", `src/module-${f}.ts`]);
    if (f % 10 === 2) git(["mv", `src/module-${f}.ts`, `src/renamed-${f}.ts`]);
    if (f % 10 === 3) {
      await writeFile(path, `${contents[f] ?? ""}export const staged${f} = true;\n`);
      git(["add", `src/module-${f}.ts`]);
    }
  }
  await mkdir(join(dir, "notes"), { recursive: true });
  for (let n = 0; n < files / 4; n += 1) await writeFile(join(dir, "notes", `draft-${n}.md`), `# Draft ${n}\n`);
}

const SOLO_TEMPLATES = [
  (name: string) =>
    `def ${name}(text: str, width: int = 40) -> str:\n    """Shorten text to at most width characters on a word boundary.\n\n    Words are kept whole; an ellipsis marks the cut.\n    """\n    if len(text) <= width:\n        return text\n    cut = text[: width - 1].rsplit(" ", 1)[0]\n    return cut + "…"\n`,
  (name: string) =>
    `def ${name}(values: list[float]) -> float:\n    """Return the median of the values (the mean of the middle two when even).\n\n    Raises ValueError for an empty list.\n    """\n    if not values:\n        raise ValueError("no values")\n    ordered = sorted(values)\n    middle = len(ordered) // 2\n    if len(ordered) % 2:\n        return ordered[middle]\n    return (ordered[middle - 1] + ordered[middle]) / 2\n`,
  (name: string) =>
    `import re\n\n\ndef ${name}(title: str) -> str:\n    """Turn a title into a URL slug: lower case, ASCII words joined by dashes."""\n    words = re.findall(r"[a-z0-9]+", title.lower())\n    return "-".join(words)\n`,
  (name: string) =>
    `def ${name}(items: list[str], size: int) -> list[list[str]]:\n    """Split items into consecutive chunks of at most size items.\n\n    The last chunk may be shorter; size must be positive.\n    """\n    if size < 1:\n        raise ValueError("size must be positive")\n    return [items[i : i + size] for i in range(0, len(items), size)]\n`,
];

const SOLO_TOPICS = ["text", "statistics", "urls", "lists"];

/**
 * Saves `count` functions through solo's save_function (the gate runs lint and type checks; tests
 * skipped), `concurrency` at a time: each save waits mostly on ruff and mypy processes (~2.5 s
 * each, one after another 20 took ~54 s).
 */
export async function saveSoloFunctions(client: Client, count: number, concurrency = 4): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await saveSoloFunction(client, i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

async function saveSoloFunction(client: Client, i: number): Promise<void> {
  const kind = i % SOLO_TEMPLATES.length;
  const name = `${["shorten", "median", "slugify", "chunk"][kind]}_${i}`;
  const template = SOLO_TEMPLATES[kind];
  if (template === undefined) throw new Error("no template");
  const result = await client.callTool(
    {
      name: "save_function",
      arguments: {
        name,
        code: template(name),
        description: `Variant ${i} of a small ${SOLO_TOPICS[kind]} helper: ${template(name).split('"""')[1]?.split("\n")[0] ?? ""}`,
        tags: [SOLO_TOPICS[kind] ?? "misc", "fixture", `batch-${i % 3}`],
        skip_tests: true,
      },
    },
    { timeout: 120_000 },
  );
  if (result.isError) throw new Error(`save_function ${name} failed: ${JSON.stringify(result.structuredContent)}`);
}
