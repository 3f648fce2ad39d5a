/**
 * The hostile values mutations draw from: strings that break parsers, paths that try to leave a
 * root, regexes that backtrack for ever, numbers at and past every edge, keys that poison
 * prototypes, and recipes for huge and deep values. Every pool is a fast-check arbitrary, so a
 * seed picks from it reproducibly.
 */
import fc from "fast-check";
import { fill, nest, repeat } from "./wire-value.js";

export const MEGABYTE = 1_048_576;

/** Where a write-capable field's absolute and traversal paths are pointed (never a system file). */
export interface PathSandbox {
  /** A directory outside the served root that the fuzz owns (absolute). */
  outside: string;
}

export const UNICODE_STRINGS = [
  "👩‍👩‍👧‍👦🏳️‍🌈😀",
  "\u202Etxt.exe\u202C",
  "مرحبا بالعالم",
  "שלום\u200Fעולם",
  "e\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030A",
  "Z̸̡̢̛̗̘̙̜̝̞̟̠̀́̂̃̄̅̆̇̉̊̋̌̍̎̏̐̑̒̓̔̽̾̿͂̓̈́͆͊͋͌͐͑͒͗͛",
  "\uD800",
  "\uDFFF",
  "a\uD83Db",
  "\uFEFFbom",
  "zero\u200Bwidth\u200C\u200D",
  "\u2028line\u2029para",
  "ｆｕｌｌｗｉｄｔｈ／ｅｔｃ／ｐａｓｓｗｄ",
  "İıſK",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟘𝟙𝟚",
  "\uFFFD\uFFFE\uFFFF",
] as const;

export const CONTROL_STRINGS = [
  "\u0000",
  "a\u0000b",
  "notes.md\u0000.png",
  "\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b",
  "\u001b[31mred\u001b[0m\u001b]0;title\u0007",
  "\r\n\r\n",
  "line1\nline2\n",
  "\t\v\f",
  "\u007f\u0080\u009f",
  '{"jsonrpc":"2.0","id":1,"result":{}}\n',
  "Content-Length: 10\r\n\r\n",
] as const;

export const INJECTION_STRINGS = [
  "'; DROP TABLE functions; --",
  '" OR 1=1 --',
  "%s%s%s%n%x",
  "{{constructor.constructor('return process')()}}",
  "{{#each this}}{{this}}{{/each}}",
  "{{> missing}}",
  "{{{{raw}}}}",
  "${process.exit(1)}",
  "$(touch /tmp/fuzz-pwned)",
  "`id`",
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "-rf",
  "--output=/tmp/fuzz-pwned",
  "--exec=id",
  "-c",
  "HEAD; id",
  "..",
  "*",
  "?",
  "[",
  "~",
  "\\",
  "null",
  "undefined",
  "true",
  "NaN",
  "0",
  "-1",
  " ",
  "   \t ",
] as const;

/** Catastrophic or malformed regexes, for fields that take one (and for any string field). */
export const REGEX_STRINGS = [
  "(a+)+$",
  "^(a+)+$",
  "(a|a)*b",
  "(a|aa)+$",
  "((a*)*)*b",
  "(x+x+)+y",
  "(.*a){25}",
  "^(\\w+\\s?)*$",
  "/(a+)+$/gimsuy",
  "/x/zz",
  "/unterminated",
  "(",
  "[",
  "\\",
  "(?<=a)b",
  "a{1,100000}",
  "(?:a{1000}){1000}",
  "\\1(a)",
  "[\\s\\S]*[\\s\\S]*[\\s\\S]*$",
  "(?<name>a)\\k<other>",
  "\\p{Script=Greek}",
  "",
] as const;

/** Reads that must stay confined (read-only fields may name real system files). */
const READ_PATHS = [
  "../../etc/passwd",
  `${"../".repeat(12)}etc/passwd`,
  "/etc/passwd",
  "/etc/shadow",
  "/proc/self/environ",
  "/proc/self/cmdline",
  "/dev/zero",
  "/dev/urandom",
  "/",
  "file:///etc/passwd",
] as const;

/** Paths whose form is hostile wherever they point. */
const FORM_PATHS = [
  ".",
  "..",
  "./",
  "..\\..\\windows\\win.ini",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "..%252f..%252fetc%252fpasswd",
  "%2e%2e/%2e%2e/etc/passwd",
  "....//....//etc/passwd",
  "~/.ssh/id_rsa",
  "$HOME/.bashrc",
  "\\\\server\\share\\x",
  "C:\\Windows\\win.ini",
  "a/./b/../../c",
  "//double//slash",
  "-rf",
  "--help",
  "no/such/dir/file.md",
  "con",
  "x".repeat(300),
  `${"deep/".repeat(200)}file`,
] as const;

/** Path strings: traversal, absolute, encoded, odd forms, and the fixture's own symlink names. */
export function pathStrings(sandbox: PathSandbox | undefined, symlinkNames: readonly string[]): fc.Arbitrary<string> {
  // A field that may write gets its absolute and traversal paths pointed into the fuzz's own
  // directory, so a confinement bug writes there and never over a system file.
  const outside = sandbox
    ? [`${sandbox.outside}/written.md`, `${sandbox.outside}/../escape.md`, `../${"../".repeat(3)}fuzz-escape.md`, sandbox.outside]
    : READ_PATHS;
  return fc.constantFrom(...outside, ...FORM_PATHS, ...(symlinkNames.length > 0 ? symlinkNames : ["missing-link"]));
}

/** Huge strings, 1 MiB of ASCII, emoji, NUL or a lone surrogate, and boundary lengths. */
function hugeStrings(maxLength: number | undefined): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [
    fc.constantFrom(
      repeat("a", MEGABYTE),
      repeat("😀", MEGABYTE / 4),
      repeat("\u0000", 65_536),
      repeat("\uD800", 65_536),
      repeat("../", 100_000),
      repeat("{{x}}", 50_000),
    ),
  ];
  if (maxLength !== undefined) options.push(fc.constantFrom(repeat("a", maxLength + 1), repeat("é", maxLength), repeat("😀", maxLength)));
  return fc.oneof(...options);
}

export interface StringContext {
  /** Leave out megabyte strings (for items of 100,000-item arrays). */
  small?: boolean;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  /** The field may write a file: keep its paths inside the fuzz's directories. */
  sandbox?: PathSandbox | undefined;
  symlinkNames: readonly string[];
}

/** Any hostile string for a string field. */
export function hostileString(context: StringContext): fc.Arbitrary<unknown> {
  const options: fc.WeightedArbitrary<unknown>[] = [
    { weight: 3, arbitrary: fc.constant("") },
    { weight: 6, arbitrary: fc.constantFrom(...UNICODE_STRINGS) },
    { weight: 5, arbitrary: fc.constantFrom(...CONTROL_STRINGS) },
    { weight: 6, arbitrary: fc.constantFrom(...INJECTION_STRINGS) },
    { weight: 5, arbitrary: fc.constantFrom(...REGEX_STRINGS) },
    { weight: 8, arbitrary: pathStrings(context.sandbox, context.symlinkNames) },
    { weight: 4, arbitrary: fc.string({ unit: "binary", maxLength: 64 }) },
    { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 64 }) },
  ];
  if (!context.small) options.push({ weight: 2, arbitrary: hugeStrings(context.maxLength) });
  if (context.minLength !== undefined && context.minLength > 0) {
    options.push({ weight: 1, arbitrary: fc.constant("x".repeat(context.minLength - 1)) });
  }
  return fc.oneof(...options);
}

export const EDGE_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  1e-300,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  2 ** 31,
  2 ** 32,
  2 ** 63,
  -(2 ** 31) - 1,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
] as const;

export interface NumberContext {
  minimum?: number | undefined;
  maximum?: number | undefined;
  integer: boolean;
}

/** Numbers at and past the edges (NaN and ±Infinity travel as null), and number-like strings. */
export function hostileNumber(context: NumberContext): fc.Arbitrary<unknown> {
  const edges: number[] = [];
  if (context.minimum !== undefined) edges.push(context.minimum - 1, context.minimum - 0.5);
  if (context.maximum !== undefined) edges.push(context.maximum + 1, context.maximum + 0.5);
  if (context.integer && context.minimum !== undefined) edges.push(context.minimum + 0.25);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
    { weight: 3, arbitrary: edges.length > 0 ? fc.constantFrom(...edges) : fc.constant(-1) },
    { weight: 2, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.constantFrom("1", "NaN", "Infinity", "1e999", "0x10", "", "-0", "1_000") },
  );
}

/** Values nested 10, 1,000 or 10,000 levels deep, as arrays or objects. */
export function deepValue(): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      fc.constantFrom<"array" | "object">("array", "object"),
      fc.constantFrom(10, 1_000, 10_000),
      fc.constantFrom(null, "x", 1, {}, []),
    )
    .map(([kind, depth, leaf]) => nest(kind, depth, leaf));
}

/** 100,000 small items, or max + 1 hostile (small) ones. */
export function oversizedArray(item: fc.Arbitrary<unknown>, maxItems: number | undefined): fc.Arbitrary<unknown> {
  const tiny = fc.constantFrom<unknown>("a", 1, null, {}, [], "../../etc/passwd", "😀", "\u0000", "(a+)+$");
  const options: fc.Arbitrary<[unknown, number]>[] = [fc.tuple(tiny, fc.constant<number>(100_000))];
  if (maxItems !== undefined) options.push(fc.tuple(item, fc.constant(maxItems + 1)));
  return fc.oneof(...options).map(([value, count]) => fill(value, count));
}

/** A value of some JSON type (for wrong-type mutations; the caller filters the field's own type). */
export const VALUES_BY_TYPE: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.constantFrom("", "text", "1", "true", "null"),
  number: fc.constantFrom(0, -1, 1.5, 1e21),
  integer: fc.constantFrom(0, 7, -3),
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.constantFrom<unknown[]>([], [1, "a", null], [[]], [{}]),
  object: fc.constantFrom<Record<string, unknown>>({}, { a: 1 }, { "": "" }, { nested: { deeper: [] } }),
};

/** Keys a strict schema must refuse, and ones that try to poison prototypes. */
export const EXTRA_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "extra",
  "",
  " ",
  "😀",
  "\u0000",
  "a.b",
  "$ref",
  "_meta",
  "response_level",
  "x".repeat(10_000),
] as const;
