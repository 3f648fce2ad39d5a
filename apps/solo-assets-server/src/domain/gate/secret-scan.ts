/**
 * The secret scan of a save: credentials written into code are refused before anything is stored
 * (every version is kept, so a broken version would keep the key too). Two kinds of finding, each
 * with its line:
 *
 * - key patterns: provider key prefixes (`sk-live-`, `sk_live_`, `sk-` + 20 characters, `AKIA…`,
 *   `ghp_…` and GitHub's other token prefixes, Slack's `xox…-`, Google's `AIza…`), private key
 *   blocks, and a password, secret or API key assigned a string literal;
 * - high-entropy string literals: a run of at least 24 letters, digits and `+/_-=` inside a
 *   string, mixing upper case, lower case and digits, with a Shannon entropy of at least 4.5 bits a
 *   character — random keys; prose, identifiers, regular expressions and hex digests (checksums
 *   are ordinary constants) stay below, and an alphabet written out ("ABC…xyz0123…") is skipped.
 *
 * The finding shows only the start of the value, never the value itself.
 */

export interface SecretFinding {
  line: number;
  kind: string;
  /** The first characters of what was found, then "…". */
  preview: string;
}

const KEY_PATTERNS: readonly { kind: string; pattern: RegExp }[] = [
  { kind: "a live secret key (sk-live-/sk_live_)", pattern: /\b[sr]k[-_]live[-_][A-Za-z0-9_-]{8,}/ },
  { kind: "an API secret key (sk-…)", pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/ },
  { kind: "an AWS access key id (AKIA…)", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: "a GitHub token (ghp_…)", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/ },
  { kind: "a Slack token (xox…)", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: "a Google API key (AIza…)", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: "a private key block", pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY( BLOCK)?-----/ },
  {
    kind: "a password or secret assigned in the code",
    pattern:
      /\b(?:password|passwd|pwd|secret|secret_key|client_secret|api_key|apikey|access_key|access_token|auth_token|private_key)\s*(?::\s*[A-Za-z_][\w[\], ]*)?=\s*[rbuRBU]?(["'])(?!\1)[^"'\s]{4,}\1/i,
  },
];

/** Characters of base64 and URL-safe keys. */
const KEY_RUN = /[A-Za-z0-9+/_=-]{24,}/g;
/** Quoted strings on one line (the quote, then anything up to the same quote unescaped). */
const STRING_LITERAL = /(["'])((?:\\.|(?!\1)[^\\])*)\1/g;
const MIN_ENTROPY = 4.5;

export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Written-out alphabets and sequences ("abcdef…", "0123…") are not keys. */
function isSequence(text: string): boolean {
  let steps = 0;
  for (let i = 1; i < text.length; i++) if (text.charCodeAt(i) - text.charCodeAt(i - 1) === 1) steps++;
  return steps >= (text.length - 1) / 2;
}

function looksRandom(run: string): boolean {
  if (/^[0-9a-fA-F]+$/.test(run)) return false;
  if (!/[A-Z]/.test(run) || !/[a-z]/.test(run) || !/[0-9]/.test(run)) return false;
  return !isSequence(run) && shannonEntropy(run) >= MIN_ENTROPY;
}

function preview(value: string): string {
  return `${value.slice(0, Math.min(6, Math.max(3, Math.floor(value.length / 4))))}…`;
}

/** Every line holding a key pattern or a high-entropy string literal (one finding per line). */
export function scanSecrets(code: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const [index, text] of code.split("\n").entries()) {
    const line = index + 1;
    const pattern = KEY_PATTERNS.map((p) => ({ kind: p.kind, match: p.pattern.exec(text) })).find((p) => p.match);
    if (pattern?.match) {
      findings.push({ line, kind: pattern.kind, preview: preview(pattern.match[0]) });
      continue;
    }
    for (const literal of text.matchAll(STRING_LITERAL)) {
      const random = [...(literal[2] ?? "").matchAll(KEY_RUN)].map((m) => m[0]).find(looksRandom);
      if (random) {
        findings.push({ line, kind: "a high-entropy string (a key or token?)", preview: preview(random) });
        break;
      }
    }
  }
  return findings;
}
