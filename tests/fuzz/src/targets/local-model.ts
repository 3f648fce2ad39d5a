/**
 * local-model-mcp on a temporary work tree: Markdown with frontmatter, TypeScript modules that
 * import each other, a file that makes `(a+)+$` backtrack, a file above the 1 MiB read limit, a
 * git history with a dirty work tree, and symlinks that lead out of the root. The model is the
 * tiny generated GGUF of core/testing (CPU, one thread, loaded at start): `engine: "model"` and
 * the tasks that need judgment (summaries, natural-language checks) run real llama.cpp inference,
 * schema-constrained, within the same deadline as every other call.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { appEntry, linkOut, makeSandbox, writesOutside } from "./sandbox.js";
import { BASE_ENV, type FuzzTarget } from "./target.js";
import { writeTinyModel } from "./tiny-model.js";

/** LOCAL_MODEL_TIMEOUT_MS: every tool's deadline, model calls included (documented default 30 s; shorter keeps runs quick). */
const TIMEOUT_MS = 10_000;
/** LOCAL_MODEL_MODEL_CONTEXT_SIZE: prompt + max_tokens must fit; a larger prompt is INVALID_INPUT before generation. */
const CONTEXT_SIZE = 2_048;
/** A JSON schema for the frontmatter golden call: one boolean, as the app's model tests ask. */
const FLAG_SCHEMA = { type: "object", properties: { flag: { type: "boolean" } }, required: ["flag"], additionalProperties: false };

const FILES: Record<string, string> = {
  "notes.md": "---\ntitle: Notes\ntags: [a, b]\nnested:\n  key: value\n---\n# Notes\n\n## Plan\n\nSome text.\n",
  "README.md": "# Readme\n\n## Install\n\n## Use\n\n### Details\n",
  "src/a.ts":
    'import { b } from "./b.js";\nexport const a = (x: number): number => b(x) + 1;\nexport function helper(): string {\n  return "a";\n}\n',
  "src/b.ts":
    'import * as path from "node:path";\nexport function b(x: number): number {\n  return path.sep.length + x;\n}\nexport type Shape = { kind: "b" };\n',
  "src/util.js": "export default function util() {\n  return 1;\n}\nmodule.exports = { util };\n",
  "redos.txt": `${"a".repeat(40)}!\n`,
  "data.json": '{"a": 1, "b": [1, 2, 3]}\n',
};

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Fuzz",
  GIT_AUTHOR_EMAIL: "fuzz@example.com",
  GIT_COMMITTER_NAME: "Fuzz",
  GIT_COMMITTER_EMAIL: "fuzz@example.com",
};

async function writeWorkTree(root: string): Promise<void> {
  for (const [name, text] of Object.entries(FILES)) {
    await mkdir(join(root, name, ".."), { recursive: true });
    await writeFile(join(root, name), text);
  }
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, env: GIT_ENV, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", ".");
  git("commit", "-q", "-m", "first");
  await writeFile(join(root, "src/b.ts"), `${FILES["src/b.ts"]}export const more = 1;\n`);
  git("commit", "-q", "-am", "second: more");
  await writeFile(join(root, "notes.md"), `${FILES["notes.md"]}\nA dirty line.\n`);
  await writeFile(join(root, "untracked.md"), "# Untracked\n");
  await writeFile(join(root, "big.log"), "x".repeat(1_500_000));
}

export const localModelTarget: FuzzTarget = {
  name: "local-model-mcp",
  short: "local-model",
  entry: appEntry("local-model-server"),
  strict: true,
  prepare: async (dir) => {
    const sandbox = await makeSandbox(dir);
    await writeWorkTree(sandbox.root);
    await linkOut(sandbox, "link-out.md", "file");
    await linkOut(sandbox, "link-dir", "dir");
    const state = join(dir, "state");
    await mkdir(state);
    const model = await writeTinyModel(dir, { fim: false, contextLength: CONTEXT_SIZE });
    const files = ["notes.md", "README.md", "src/a.ts", "src/b.ts", "src/util.js", "redos.txt", "data.json", "big.log", "link-out.md"];
    return {
      env: {
        ...BASE_ENV,
        LOCAL_MODEL_ROOTS: sandbox.root,
        LOCAL_MODEL_STATE_DIR: state,
        LOCAL_MODEL_TIMEOUT_MS: String(TIMEOUT_MS),
        LOCAL_MODEL_REGEX_TIMEOUT_MS: "250",
        LOCAL_MODEL_MODEL_PATH: model,
        LOCAL_MODEL_MODEL_GPU: "cpu",
        LOCAL_MODEL_MODEL_THREADS: "1",
        LOCAL_MODEL_MODEL_CONTEXT_SIZE: String(CONTEXT_SIZE),
        LOCAL_MODEL_MODEL_MAX_TOKENS: "512",
        LOCAL_MODEL_MODEL_PRELOAD: "true",
        // Most characters of a file put into a prompt: keeps prompts within the tiny context.
        LOCAL_MODEL_MAX_INPUT_CHARS: "1000",
      },
      cwd: sandbox.root,
      hints: {
        files,
        file: files,
        paths: ["src", "notes.md", "link-dir"],
        patterns: ["^#+ ", "export", "(a+)+$", "/^import .*$/m"],
        fields: ["title", "tags", "nested.key"],
        repo: [sandbox.root, "src"],
        ref: ["HEAD~1", "main", "HEAD"],
        template: ["summary", "plan", "# {{title}}\n{{#each items}}- {{this}}\n{{/each}}"],
        output_path: ["out/generated.md", "notes-copy.md"],
        value: ["Notes", "helper", "node:path", "^# "],
        id: ["CHECK-01"],
      },
      writeFields: new Set(["output_path"]),
      sandbox: { outside: sandbox.outside },
      symlinkNames: ["link-out.md", "link-dir", "link-dir/secret.md"],
      sentinel: sandbox.sentinel,
      writesOutside: () => writesOutside(dir, sandbox),
      deadlineMs: () => TIMEOUT_MS,
      // The model loads in the background after start: wait for it before the fuzz begins.
      warmUp: {
        tool: "local_extract",
        arguments: { task_type: "frontmatter", engine: "model", files: ["notes.md"], extract: { fields: ["flag"] }, schema: FLAG_SCHEMA },
      },
      golden: [
        { tool: "local_extract", arguments: { task_type: "frontmatter", files: ["notes.md"] } },
        {
          tool: "local_extract",
          arguments: { task_type: "pattern_match", files: ["redos.txt", "notes.md"], extract: { patterns: ["(a+)+$", "^#"] } },
        },
        { tool: "local_analyze", arguments: { task_type: "dependencies", files: ["src/a.ts"], depth: 2 } },
        { tool: "local_git", arguments: { task_type: "status" } },
        { tool: "local_git", arguments: { task_type: "log", options: { limit: 5 } } },
        { tool: "local_verify", arguments: { checks: [{ id: "C1", file: "notes.md", condition: { type: "contains", value: "Notes" } }] } },
        { tool: "local_generate", arguments: { template: "# {{title}}\n", variables: { title: "Fuzz" }, output_path: "out/golden.md" } },
        {
          tool: "local_extract",
          arguments: { task_type: "frontmatter", engine: "model", files: ["notes.md"], extract: { fields: ["flag"] }, schema: FLAG_SCHEMA },
        },
        { tool: "local_extract", arguments: { task_type: "structure", files: ["README.md"], extract: { summarize: true } } },
        { tool: "local_analyze", arguments: { task_type: "dependencies", engine: "model", files: ["src/b.ts"] } },
        { tool: "local_git", arguments: { task_type: "log", engine: "model", options: { limit: 2 } } },
        { tool: "local_verify", arguments: { checks: [{ id: "UX-01", description: "The notes have a plan section", file: "notes.md" }] } },
        { tool: "local_generate", arguments: { template: "# {{title}}\n", variables: { title: "Fuzz" }, engine: "model" } },
      ],
    };
  },
};
