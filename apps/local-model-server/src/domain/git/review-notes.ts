/**
 * The review chore: notes on a diff from the model, each anchored to a file and a line of the
 * diff's new side (an added or context line of a hunk). Anchors are checked against the parsed
 * diff: a note whose line is not there (or whose text is empty) is dropped and reported with why.
 * The gate (reviewCheck) rejects an answer without a summary, and one whose every note is
 * misplaced, which is then retried with the reason fed back.
 */
import type { ChatMessage, JsonSchema } from "@local-mcp/core/inference";
import { tooShort, type AnswerCheck } from "../model/answer-gate.js";
import { clip, jsonTaskMessages } from "../model/prompts.js";
import { snippet } from "../text/lines.js";
import { newSideLines, numberedDiff, type DiffFile } from "./unified-diff.js";

export const SEVERITIES = ["issue", "suggestion", "question", "nit"] as const;

export const REVIEW_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    summary: { type: "string" },
    notes: {
      type: "array",
      items: {
        type: "object",
        properties: {
          file: { type: "string" },
          line: { type: "integer" },
          severity: { enum: [...SEVERITIES] },
          note: { type: "string" },
        },
        required: ["file", "line", "severity", "note"],
        additionalProperties: false,
      },
    },
  },
  required: ["summary", "notes"],
  additionalProperties: false,
};

export const REVIEW_BOUNDS = { maxStringLength: 400, maxArrayItems: 20 };

export interface ReviewNote {
  file: string;
  line: number;
  severity: (typeof SEVERITIES)[number];
  note: string;
}

export interface ReviewDraft {
  summary: string;
  notes: ReviewNote[];
}

export interface AnchoredNote extends ReviewNote {
  /** The new-side line the note is anchored to. */
  code: string;
}

export interface DroppedNote {
  file: string;
  line: number;
  note: string;
  why: string;
}

export class ReviewAnchors {
  private readonly lines: Map<string, Map<number, string>>;

  constructor(readonly files: readonly DiffFile[]) {
    this.lines = newSideLines(files);
  }

  /** Why a note cannot stand where it says, or undefined when its anchor is a new-side line of the diff. */
  problem(note: ReviewNote): string | undefined {
    if (tooShort(note.note, 3)) return "the note is empty";
    const lines = this.lines.get(note.file);
    if (!lines) return `${note.file} is not in the diff`;
    if (!lines.has(note.line)) {
      const numbers = [...lines.keys()];
      const ranges = numbers.length === 0 ? "none" : `${Math.min(...numbers)}–${Math.max(...numbers)} (in hunks)`;
      return `line ${note.line} of ${note.file} is not on the diff's new side (its lines there: ${ranges})`;
    }
    return undefined;
  }

  split(draft: ReviewDraft): { kept: AnchoredNote[]; dropped: DroppedNote[] } {
    const kept: AnchoredNote[] = [];
    const dropped: DroppedNote[] = [];
    for (const note of draft.notes) {
      const why = this.problem(note);
      if (why) dropped.push({ file: note.file, line: note.line, note: note.note, why });
      else kept.push({ ...note, note: note.note.trim(), code: snippet(this.lines.get(note.file)?.get(note.line) ?? "") });
    }
    return { kept, dropped };
  }

  check(): AnswerCheck<ReviewDraft> {
    return (draft) => {
      if (tooShort(draft.summary, 10)) return "the summary is empty: say in a sentence what the change does and how it looks";
      if (draft.notes.length === 0) return undefined;
      const problems = draft.notes.map((n) => this.problem(n));
      if (problems.every((p) => p !== undefined)) {
        return `no note is anchored to the diff: ${problems[0]}; anchor each note to a numbered line of the diff (an added or context line)`;
      }
      return undefined;
    };
  }
}

export function reviewPrompt(files: readonly DiffFile[], maxChars: number): ChatMessage[] {
  return jsonTaskMessages(
    "careful code reviewer",
    [
      "Review this diff. summary: one or two sentences on what it does and whether it looks right.",
      `notes: at most 20, each on one numbered line of the diff (file as after ###, line as numbered), severity one of ${SEVERITIES.join(", ")};`,
      "only real problems, risks or questions, no praise; an empty list when there is nothing to say.",
    ].join("\n"),
    [{ label: "DIFF (new-side line numbers on the left)", text: clip(numberedDiff(files), maxChars) }],
    REVIEW_SCHEMA,
  );
}
