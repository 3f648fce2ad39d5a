import { isTestPath } from "../analysis/test-files.js";
import type { FileFacts } from "../analysis/source-facts.js";
import { extensionOf } from "../files/languages.js";
import type { Convention, NamingKind } from "./catalog-schema.js";
import { Counter, formatTop, percent, percentile } from "./counting.js";
import { fileStem, namingOfKind } from "./naming-convention.js";

const INDEX_FILES = /^(?:index\.[cm]?[jt]sx?|__init__\.py|mod\.rs|lib\.rs)$/;

/** File layout: where code lives, source roots, file size, index files, file naming. */
export function layoutConvention(facts: readonly FileFacts[]): Convention {
  const top = new Counter();
  const sourceRoots = new Counter();
  const extensions = new Counter();
  let inSource = 0;
  let nonTest = 0;
  let indexFiles = 0;
  for (const file of facts) {
    const slash = file.path.indexOf("/");
    top.add(slash < 0 ? "(root)" : `${file.path.slice(0, slash)}/`);
    extensions.add(extensionOf(file.path));
    const base = file.path.slice(file.path.lastIndexOf("/") + 1);
    if (INDEX_FILES.test(base)) indexFiles += 1;
    if (isTestPath(file.path)) continue;
    nonTest += 1;
    const root = /^(?:(.*?\/)?(?:src|lib))\//.exec(file.path);
    if (root) {
      inSource += 1;
      sourceRoots.add(file.path.slice(0, root[0].length - 1));
    }
  }
  const lines = facts.map((f) => f.lines);
  const median = percentile(lines, 50);
  const p90 = percentile(lines, 90);
  const fileNaming: NamingKind | undefined = namingOfKind(
    "file",
    facts.map((f) => fileStem(f.path)),
  );
  const rules: string[] = [];
  if (facts.length > 0) rules.push(`Code lives under ${formatTop(top.top(6))}`);
  if (sourceRoots.size > 0)
    rules.push(
      `Source files sit in src/ or lib/ directories: ${inSource} of ${nonTest} non-test files (${percent(inSource, nonTest)}), in ${formatTop(sourceRoots.top(6))}`,
    );
  if (facts.length > 0) rules.push(`Files are small: median ${median} lines, 90% have at most ${p90} lines`);
  if (fileNaming)
    rules.push(
      `File names are ${fileNaming.dominant} (${percent(Math.round(fileNaming.consistency * fileNaming.total), fileNaming.total)}), e.g. ${fileNaming.examples.join(", ")}`,
    );
  if (indexFiles > 0)
    rules.push(`${indexFiles} index/package files (index.ts, __init__.py, mod.rs) gather their directory's public surface`);
  const summary =
    facts.length === 0
      ? "No code files were found."
      : `${facts.length} code files${sourceRoots.size > 0 ? `, ${percent(inSource, nonTest)} of the non-test ones under src/ or lib/` : ""}; ` +
        `median file ${median} lines${fileNaming ? `; file names ${fileNaming.dominant}` : ""}.`;
  return {
    name: "file-layout",
    title: "File layout",
    summary,
    rules,
    details: {
      topDirectories: top.toRecord(),
      sourceRoots: Object.fromEntries(sourceRoots.top(20)),
      filesInSourceRoots: inSource,
      nonTestFiles: nonTest,
      extensions: extensions.toRecord(),
      linesPerFile: { median, p90, max: lines.length > 0 ? Math.max(...lines) : 0 },
      indexFiles,
      fileNaming: fileNaming ?? null,
    },
  };
}
