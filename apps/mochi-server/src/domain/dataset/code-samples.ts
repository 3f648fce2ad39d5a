import type { CodeChunk } from "../analysis/source-facts.js";
import type { ScannedFile } from "../catalog/scan-repository.js";
import { snippet } from "../catalog/snippets.js";
import { languageName } from "../files/languages.js";
import { completionPrompt, domainPrompt } from "../model/prompts.js";
import type { DatasetSample, ServedSample } from "./alpaca-record.js";
import { seedFrom, seededRandom } from "@local-mcp/core";

/** Where completion samples split a chunk: at 30%, 50% and 70% of its lines (Mochi's recipe). */
export const COMPLETION_SPLITS = [0.3, 0.5, 0.7] as const;
/** The marker FIM samples put where the missing code goes. */
export const FILL_MARKER = "<FILL>";
const MIN_CHUNK_LINES = 3;
const MAX_CHUNK_LINES = 200;
const MIN_FIM_LINES = 5;
const MIN_DOC_CHARS = 20;
const EXPLAIN_CODE_LINES = 60;

/**
 * Samples from the code itself, for every chunk (top-level declaration, or method of a long class)
 * of 3–200 lines:
 * - completion: the first 30/50/70% of the chunk's lines → the rest;
 * - fill-in-the-middle: one span of 1–3 inner lines (chosen by a PRNG seeded with the dataset seed,
 *   the file and the symbol) replaced by `<FILL>` → that span;
 * - explanation: a documented chunk's code → its doc comment.
 * Each sample is also rendered as served (`served`): completion and FIM as complete_code's prompt
 * at that cursor in the file as it is (code before and after, original indentation) with the
 * missing lines as the answer; explanations as domain_query's prompt.
 */
export function codeSamples(file: ScannedFile, seed: number): DatasetSample[] {
  const samples: DatasetSample[] = [];
  const language = languageName(file.language);
  const fileLines = file.text.split("\n");
  /** complete_code's prompt for the cursor before line `from` (0-based) with lines [from, to) missing. */
  const servedGap = (from: number, to: number): ServedSample => ({
    prompt: completionPrompt({
      prefix: fileLines.slice(0, from).join("\n") + (from > 0 ? "\n" : ""),
      suffix: to < fileLines.length ? `\n${fileLines.slice(to).join("\n")}` : "",
    }),
    completion: fileLines.slice(from, to).join("\n"),
  });
  for (const chunk of file.facts.chunks) {
    const lines = chunkLines(file, chunk);
    if (lines.length < MIN_CHUNK_LINES || lines.length > MAX_CHUNK_LINES) continue;
    const where = `${file.path}`;
    const splits = [...new Set(COMPLETION_SPLITS.map((p) => Math.min(lines.length - 1, Math.max(1, Math.round(lines.length * p)))))];
    for (const at of splits) {
      samples.push({
        kind: "completion",
        group: file.path,
        record: {
          instruction: `Complete the following ${language} code from ${where}.`,
          input: `${lines.slice(0, at).join("\n")}\n`,
          output: lines.slice(at).join("\n"),
        },
        served: servedGap(chunk.startLine - 1 + at, chunk.endLine),
      });
    }
    if (lines.length >= MIN_FIM_LINES) {
      const random = seededRandom(seedFrom(`${seed}:${file.path}:${chunk.symbol}:${chunk.startLine}`));
      const start = 1 + Math.floor(random() * (lines.length - 2));
      const length = Math.min(1 + Math.floor(random() * 3), lines.length - 1 - start);
      samples.push({
        kind: "fim",
        group: file.path,
        record: {
          instruction: `Fill in the code at ${FILL_MARKER} in this ${language} code from ${where}. Answer with the missing code only.`,
          input: `${lines.slice(0, start).join("\n")}\n${FILL_MARKER}\n${lines.slice(start + length).join("\n")}`,
          output: lines.slice(start, start + length).join("\n"),
        },
        served: servedGap(chunk.startLine - 1 + start, chunk.startLine - 1 + start + length),
      });
    }
    if (chunk.doc && chunk.doc.length >= MIN_DOC_CHARS) {
      const explanation = {
        instruction: `Explain what \`${chunk.symbol}\` in ${where} does.`,
        input: lines.slice(0, EXPLAIN_CODE_LINES).join("\n"),
        output: chunk.doc,
      };
      samples.push({
        kind: "explanation",
        group: file.path,
        record: explanation,
        served: {
          prompt: domainPrompt({ instruction: explanation.instruction, input: explanation.input }),
          completion: explanation.output,
        },
      });
    }
  }
  return samples;
}

/** The chunk's lines, dedented (methods lose their class indentation). */
function chunkLines(file: ScannedFile, chunk: CodeChunk): string[] {
  return snippet(file.text, chunk.startLine, chunk.endLine, file.language, Number.MAX_SAFE_INTEGER).split("\n");
}
