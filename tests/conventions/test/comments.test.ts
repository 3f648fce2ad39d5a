/**
 * Comments name only files in this repository: no design documents that live outside it (the
 * shared style and architecture notes, the seed documents), and every repository path a comment gives —
 * `packages/…`, `apps/…`, `tests/…`, `scripts/…`, `bench/…`, `docs/…`, or `src/…` inside the
 * comment's own package — exists. Comments are read with TypeScript's scanner, so strings and code
 * are not mistaken for them.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Names of documents outside the repository. */
const OUTSIDE = [/\b(?:STYLE|ARCHITECTURE)\.md\b/, /\bseeds?\s*#?\d{3}\b/i, /\.\.\/shared\b/];
/** A repository path (from the root), or a package-relative `src/…` path. */
const ROOT_PATH = /(?:^|[\s(`'"[])((?:packages|apps|tests|scripts|bench|docs|\.ci)\/[\w.@/-]*\.[a-z]{1,5})(?![\w/])/g;
const PACKAGE_PATH = /(?:^|[\s(`'"[])(src\/[\w.@/-]*\.[a-z]{1,5})(?![\w/])/g;

function sourceFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.ts", "*.mts", "*.mjs", "*.js", "*.cjs"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return out.split("\n").filter((f) => f !== "" && !f.includes("/dist/") && !f.includes("node_modules/") && !f.includes("/fixtures/"));
}

/** Tokens after which a `/` divides; anywhere else it opens a regular expression. */
const ENDS_EXPRESSION = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.ThisKeyword,
]);

function commentsOf(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const comments: string[] = [];
  // Open braces inside each `${` of the template literals being scanned.
  const templates: number[] = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push(scanner.getTokenText());
      continue;
    }
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia) continue;
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !ENDS_EXPRESSION.has(previous))
      kind = scanner.reScanSlashToken();
    if (kind === ts.SyntaxKind.TemplateHead) templates.push(0);
    else if (kind === ts.SyntaxKind.OpenBraceToken && templates.length > 0) templates[templates.length - 1]! += 1;
    else if (kind === ts.SyntaxKind.CloseBraceToken && templates.length > 0) {
      if (templates.at(-1) === 0) {
        kind = scanner.reScanTemplateToken(false);
        if (kind === ts.SyntaxKind.TemplateTail) templates.pop();
      } else templates[templates.length - 1]! -= 1;
    }
    previous = kind;
  }
  return comments;
}

/** The package directory (holding package.json) that `file` belongs to. */
function packageDir(file: string): string {
  const parts = file.split("/");
  for (let i = parts.length - 1; i > 0; i--) {
    const dir = parts.slice(0, i).join("/");
    if (existsSync(join(ROOT, dir, "package.json"))) return dir;
  }
  return "";
}

const placeholder = (path: string) => /[*<>{}]|\/dist\/|\.\.\./.test(path);

describe("comments", () => {
  const problems: string[] = [];
  const files = sourceFiles();
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const comment of commentsOf(text)) {
      for (const outside of OUTSIDE) {
        const hit = outside.exec(comment);
        if (hit) problems.push(`${file}: names "${hit[0]}", which is not in this repository`);
      }
      // Tests name the files of the projects they make (docs/alpha.md in a temporary project).
      if (!file.includes("/src/") && !file.startsWith("scripts/") && !file.startsWith("bench/")) continue;
      for (const [, path] of comment.matchAll(ROOT_PATH)) {
        const clean = (path ?? "").replace(/[.,:;)]+$/, "");
        if (!placeholder(clean) && !existsSync(join(ROOT, clean))) problems.push(`${file}: names ${clean}, which does not exist`);
      }
      for (const [, path] of comment.matchAll(PACKAGE_PATH)) {
        const clean = (path ?? "").replace(/[.,:;)]+$/, "");
        if (!placeholder(clean) && !existsSync(join(ROOT, packageDir(file), clean)))
          problems.push(`${file}: names ${clean}, which is not in ${packageDir(file) || "the root"}`);
      }
    }
  }

  it("are read from every source file", () => {
    expect(files.length).toBeGreaterThan(500);
  });

  it("name only files in this repository", () => {
    expect(problems).toEqual([]);
  });
});
