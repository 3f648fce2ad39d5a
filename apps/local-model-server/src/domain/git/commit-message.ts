/**
 * The commit-message chore: a Conventional Commits message for the staged diff. Git gives the
 * exact file list and line counts (numstat); the model only words the message, constrained to
 * COMMIT_SCHEMA and passed through the gate (commitMessageCheck): a subject with substance, a
 * header `type(scope): subject` of at most 72 characters, a scope without spaces, and no file
 * named that the commit does not change.
 */
import type { ChatMessage, JsonSchema } from "@local-mcp/core/inference";
import { tooShort, type AnswerCheck } from "../model/answer-gate.js";
import { clip, jsonTaskMessages } from "../model/prompts.js";
import type { DiffChange } from "./diff-parser.js";

export const COMMIT_TYPES = ["feat", "fix", "docs", "style", "refactor", "perf", "test", "build", "ci", "chore", "revert"] as const;
export const HEADER_MAX = 72;
const SCOPE_MAX = 30;

const nullableString = { type: ["string", "null"] } as const;

export const COMMIT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    type: { enum: [...COMMIT_TYPES] },
    scope: nullableString,
    subject: { type: "string" },
    body: nullableString,
    breaking: nullableString,
  },
  required: ["type", "scope", "subject", "body", "breaking"],
  additionalProperties: false,
};

export interface CommitDraft {
  type: (typeof COMMIT_TYPES)[number];
  scope: string | null;
  subject: string;
  body: string | null;
  breaking: string | null;
}

export interface CommitMessage {
  header: string;
  message: string;
  type: string;
  scope?: string;
  subject: string;
  body?: string;
  breaking?: string;
}

/** File names with an extension, as a message mentions them: a name, or a path of folders and a name. */
const FILE_MENTION =
  /(?:^|[\s`'"(])((?:[\w.-]+\/)*[\w-]+\.(?:tsx?|jsx?|mjs|cjs|py|go|rs|java|cs|rb|php|md|json|ya?ml|toml|css|html|sh|sql|txt))\b/g;

const clean = (text: string | null) => (text ?? "").trim();

/** The draft as a message: a trailing period dropped from the subject, empty parts left out. */
export function formatCommit(draft: CommitDraft): CommitMessage {
  const scope = clean(draft.scope);
  const subject = clean(draft.subject).replace(/\.+$/, "");
  const body = clean(draft.body);
  const breaking = clean(draft.breaking);
  const header = `${draft.type}${scope ? `(${scope})` : ""}${breaking ? "!" : ""}: ${subject}`;
  const message = [header, ...(body ? [body] : []), ...(breaking ? [`BREAKING CHANGE: ${breaking}`] : [])].join("\n\n");
  return {
    header,
    message,
    type: draft.type,
    ...(scope ? { scope } : {}),
    subject,
    ...(body ? { body } : {}),
    ...(breaking ? { breaking } : {}),
  };
}

export function commitMessageCheck(changes: readonly DiffChange[]): AnswerCheck<CommitDraft> {
  const names = new Set(changes.flatMap((c) => [c.file, ...(c.from ? [c.from] : [])]).flatMap((p) => [p, p.split("/").pop() ?? p]));
  return (draft) => {
    if (tooShort(draft.subject, 3)) return "the subject is empty: say in a few words what the change does";
    if (/[\r\n]/.test(draft.subject.trim())) return "the subject must be one line; put details in body";
    const scope = clean(draft.scope);
    if (scope && (!/^[\w./-]+$/.test(scope) || scope.length > SCOPE_MAX))
      return `the scope '${scope}' must be one word of at most ${SCOPE_MAX} characters (letters, digits, . / - _), or null`;
    const { header } = formatCommit(draft);
    if (header.length > HEADER_MAX)
      return `the header "${header}" is ${header.length} characters; at most ${HEADER_MAX}: shorten the subject`;
    const text = `${draft.subject}\n${draft.body ?? ""}\n${draft.breaking ?? ""}`;
    for (const match of text.matchAll(FILE_MENTION)) {
      const mentioned = match[1] ?? "";
      if (!names.has(mentioned) && !names.has(mentioned.split("/").pop() ?? mentioned)) {
        return `the message names ${mentioned}, which this commit does not change (it changes ${[...changes.map((c) => c.file)].slice(0, 10).join(", ")})`;
      }
    }
    return undefined;
  };
}

export function commitMessagePrompt(changes: readonly DiffChange[], patch: string, maxChars: number): ChatMessage[] {
  const list = changes.map(
    (c) => `${c.file}${c.from ? ` (renamed from ${c.from})` : ""}: +${c.added} -${c.removed}${c.binary ? " (binary)" : ""}`,
  );
  return jsonTaskMessages(
    "commit message writer following Conventional Commits",
    [
      "Write the commit message for these staged changes.",
      `type: one of ${COMMIT_TYPES.join(", ")}. scope: the area changed in one word, or null.`,
      `subject: imperative, lower case, no final period; "type(scope): subject" at most ${HEADER_MAX} characters.`,
      "body: why and what changed, in plain sentences, or null for a trivial change. breaking: what breaks for users, or null.",
      "Name only files that are in the list.",
    ].join("\n"),
    [
      { label: "FILES CHANGED (from git)", text: list.join("\n") },
      { label: "STAGED DIFF (new-side line numbers on the left)", text: clip(patch, maxChars) },
    ],
    COMMIT_SCHEMA,
  );
}
