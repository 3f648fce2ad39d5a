// A lock-less editor, run as its own process by catdoc-cancel-and-editor.test.ts: it saves a
// file `saves` times, as editors do — reload the file, change the marker lines, save — either
// atomically (a temporary file renamed over it, like editors with "safe write") or in place
// (truncate and write, like editors without). The file carries the number of the editor's last
// save in two comment lines, one first (`# editor-save: N`) and one last (`# editor-end: N`).
//
// Only this editor ever changes those lines; every other writer (catdoc) edits the file around
// them and keeps them. So when the editor reloads the file before its next save and finds
// anything but its own last save's number in both lines, its last save was overwritten by a
// writer that had read an older version: a save silently lost. It prints one JSON line with
// what it saw.
//
// catdoc's commit takes category.yaml away for microseconds (a rename to a stash name, then a
// link of the new file): a reload that finds the file missing tries again, as an editor that
// watches the file does, and counts it (`missingSeen`).
//
// Usage: node lockless-editor.mjs <file> <saves> <atomic|in-place> <minIntervalMs> <maxIntervalMs>
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { basename, dirname, join } from "node:path";

const [file, savesArg, mode, minArg, maxArg] = process.argv.slice(2);
const saves = Number(savesArg);
const minMs = Number(minArg);
const maxMs = Number(maxArg);
if (file === undefined || !Number.isInteger(saves) || (mode !== "atomic" && mode !== "in-place")) {
  process.stderr.write("usage: lockless-editor.mjs <file> <saves> <atomic|in-place> <minIntervalMs> <maxIntervalMs>\n");
  process.exit(2);
}

const HEAD = /^# editor-save: (\d+)$/m;
const TAIL = /^# editor-end: (\d+)\s*$/;
const temp = join(dirname(file), `.${basename(file)}.editor-${process.pid}.tmp`);

/** The markers of `text`: the first line's and the last non-empty line's (NaN when absent). */
function markers(text) {
  const lines = text.trimEnd().split("\n");
  return [Number(HEAD.exec(lines[0] ?? "")?.[1] ?? NaN), Number(TAIL.exec(lines.at(-1) ?? "")?.[1] ?? NaN)];
}

let missingSeen = 0;
/** The file's text; found missing (inside a catdoc commit), read again for up to 5 s. */
async function reload() {
  for (let tries = 0; ; tries += 1) {
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      if (error?.code !== "ENOENT" || tries >= 5000) throw error;
      if (tries === 0) missingSeen += 1;
      await sleep(1);
    }
  }
}

const lost = [];
const started = Date.now();
let last = markers(await reload())[0];
if (Number.isNaN(last)) {
  process.stderr.write(`${file} has no '# editor-save: N' first line\n`);
  process.exit(2);
}
for (let save = last + 1; save <= last + saves; save += 1) {
  const text = await reload();
  const [head, tail] = markers(text);
  if (head !== save - 1 || tail !== save - 1) lost.push({ save: save - 1, found: [head, tail], at: Date.now() - started });
  const body = text.trimEnd().split("\n").slice(1, -1).join("\n");
  const next = `# editor-save: ${save}\n${body}\n# editor-end: ${save}\n`;
  if (mode === "atomic") {
    writeFileSync(temp, next);
    renameSync(temp, file);
  } else {
    writeFileSync(file, next);
  }
  const wait = minMs + Math.random() * (maxMs - minMs);
  await new Promise((resolve) => setTimeout(resolve, wait));
}
const [finalHead] = markers(await reload());
process.stdout.write(`${JSON.stringify({ saves, lost, last: last + saves, finalHead, missingSeen, ms: Date.now() - started })}\n`);
