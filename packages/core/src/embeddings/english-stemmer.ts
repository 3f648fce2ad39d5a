/**
 * A light English stemmer and stopword list for the built-in embedder. Not Porter: a handful of
 * suffix rules chosen so that the common inflections of one word meet on one stem ("parse",
 * "parses", "parsed", "parsing" -> "pars"; "directories" -> "directory"; "settings" -> "set").
 * Stems need not be words. Changing any rule changes vectors: bump the LocalEmbedder version.
 */

/** Function words that carry no topic. Matched before stemming, on lowercase words. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren't as at be because been before being below " +
    "between both but by can cannot could did do does doing done down during each either else etc every few for " +
    "from further had has have having he her here hers herself him himself his how however i if in into is isn't " +
    "it it's its itself just let me more most much must my myself no nor not now of off on once one only onto or " +
    "other our ours ourselves out over own per please same shall she should so some such than that the their " +
    "theirs them themselves then there these they this those through thus to too under until up upon us very via " +
    "was we were what when where whether which while who whom whose why will with within without would yet you " +
    "your yours yourself yourselves"
  ).split(" "),
);

/**
 * Words that occur everywhere in code descriptions and say little about the topic; they keep a
 * reduced weight instead of being dropped (see `wordWeight`).
 */
export const WEAK_WORDS: ReadonlySet<string> = new Set(
  "function method class code value values return returns returned result results given using use uses used thing things way get gets make makes new".split(
    " ",
  ),
);

const VOWEL = /[aeiouy]/;

/** "runn" -> "run", "bigg" -> "big"; keeps "ll", "ss", "zz" ("small", "class", "buzz"). */
function undouble(stem: string): string {
  const n = stem.length;
  const last = stem[n - 1] as string;
  if (n >= 4 && last === stem[n - 2] && !"lsz".includes(last)) return stem.slice(0, -1);
  return stem;
}

/** A stem worth keeping: at least 3 letters, one of them a vowel. */
function viable(base: string): boolean {
  return base.length >= 3 && VOWEL.test(base);
}

/** Derivational suffixes, longest first; at most one is removed. */
const DERIVATIONAL: ReadonlyArray<readonly [suffix: string, replacement: string]> = [
  ["ational", "ate"],
  ["ization", "ize"],
  ["ation", ""],
  ["ition", ""],
  ["ness", ""],
  ["ment", ""],
  ["able", ""],
  ["ible", ""],
  ["est", ""],
  ["ly", ""],
  ["ate", ""],
  ["ize", ""],
  ["ise", ""],
];

/**
 * Three steps, each removing at most one suffix, then a final "e":
 * 1. plurals and third person ("sses" -> "ss", "ies" -> "y", "s");
 * 2. "ing" / "ed", undoubling a final consonant ("running" -> "run") and restoring the "e" of
 *    "-ate", "-ble", "-ize" ("created" -> "create");
 * 3. one derivational suffix ("ation", "ness", "ly", "ate", ...). Not "-er": it would merge
 *    "computer" with "compute" and "server" with "serve".
 * Input is one lowercase word; words with non a-z letters pass unchanged.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);

  for (const suffix of ["ing", "ed"]) {
    if (!w.endsWith(suffix) || (suffix === "ed" && w.endsWith("eed"))) continue;
    const base = w.slice(0, -suffix.length);
    if (viable(base)) w = /(at|bl|iz)$/.test(base) ? `${base}e` : undouble(base);
    break;
  }

  for (const [suffix, replacement] of DERIVATIONAL) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, -suffix.length) + replacement;
    if (viable(base)) w = suffix === "est" ? undouble(base) : base;
    break;
  }

  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}
