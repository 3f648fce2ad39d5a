import { STOPWORDS, WEAK_WORDS, stem } from "./english-stemmer.js";
import { conceptsOf } from "./word-groups.js";

/**
 * Text -> weighted features for the built-in embedder (see local-embedder.ts for the scheme).
 * Pure and deterministic: no locale, no randomness, no corpus statistics.
 */

/** Only the first this many characters of a text are read (bounds time and memory). */
export const LOCAL_EMBEDDER_MAX_TEXT_CHARS = 100_000;
/** Longer tokens (hashes, base64) give no character n-grams. */
const MAX_NGRAM_TOKEN_CHARS = 64;

export interface Word {
  /** Lowercase form as written (after identifier splitting). */
  surface: string;
  stem: string;
  /** Corpus-independent IDF stand-in, see `wordWeight`. */
  weight: number;
  /** From a script written without spaces (Han, kana, Hangul, Thai...): n-grams are 1-2 chars. */
  dense: boolean;
  /** The joined form of a compound identifier ("e-mail" -> "email"); no n-grams or bigrams. */
  compound: boolean;
}

/** One feature's accumulated weight and how often it occurred. */
export interface FeatureTally {
  sum: number;
  count: number;
}

export type FeatureBlock = Map<string, FeatureTally>;

export interface FeatureBlocks {
  words: FeatureBlock;
  concepts: FeatureBlock;
  chars: FeatureBlock;
  bigrams: FeatureBlock;
}

const RAW_TOKEN = /[\p{L}\p{M}\p{N}]+(?:[_-][\p{L}\p{M}\p{N}]+)*/gu;
const DENSE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const DIGITS = /^\p{N}+$/u;

/** "parseDateString" -> parse Date String; "HTTPServer" -> HTTP Server; "md5Sum" -> md5 Sum. */
function splitIdentifier(part: string): string[] {
  return part
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(" ")
    .filter((piece) => piece.length > 0);
}

/**
 * Longer words are rarer and say more (an IDF stand-in that needs no corpus): weight grows with
 * the logarithm of the length, from 0.4 to 1.25. Numbers weigh 0.4, weak code words 0.3, words
 * of dense scripts 1.
 */
export function wordWeight(surface: string, dense: boolean): number {
  if (dense) return 1;
  if (DIGITS.test(surface)) return 0.4;
  if (WEAK_WORDS.has(surface)) return 0.3;
  const length = Array.from(surface).length;
  return Math.min(1.25, Math.max(0.4, Math.log(1 + length) / Math.log(7)));
}

function makeWord(surface: string, compound: boolean): Word {
  const dense = DENSE_SCRIPT.test(surface);
  return { surface, stem: dense ? surface : stem(surface), weight: wordWeight(surface, dense), dense, compound };
}

/** The content words of a text in order, stopwords and single letters dropped. */
export function contentWords(text: string): Word[] {
  const clean = text
    .slice(0, LOCAL_EMBEDDER_MAX_TEXT_CHARS)
    .normalize("NFKC")
    .replace(/['’]s\b/gu, "")
    .replace(/['’]/gu, "");
  const words: Word[] = [];
  for (const match of clean.matchAll(RAW_TOKEN)) {
    const parts = match[0].split(/[_-]+/).flatMap(splitIdentifier);
    for (const part of parts) {
      const lower = part.toLowerCase();
      if (STOPWORDS.has(lower)) continue;
      if (Array.from(lower).length < 2 && !DENSE_SCRIPT.test(lower)) continue;
      words.push(makeWord(lower, false));
    }
    if (parts.length >= 2 && parts.length <= 4) {
      const joined = parts.join("").toLowerCase();
      if (!STOPWORDS.has(joined)) words.push(makeWord(joined, true));
    }
  }
  return words;
}

function tally(block: FeatureBlock, feature: string, weight: number): void {
  const entry = block.get(feature);
  if (entry === undefined) block.set(feature, { sum: weight, count: 1 });
  else {
    entry.sum += weight;
    entry.count += 1;
  }
}

function addCharNgrams(block: FeatureBlock, word: Word): void {
  const chars = Array.from(word.dense ? word.surface : `<${word.surface}>`);
  if (!word.dense && chars.length > MAX_NGRAM_TOKEN_CHARS + 2) return;
  const sizes = word.dense ? [1, 2] : [3, 4];
  const grams: string[] = [];
  for (const n of sizes) {
    for (let i = 0; i + n <= chars.length; i++) grams.push(chars.slice(i, i + n).join(""));
  }
  if (grams.length === 0) return;
  // Spread the word's weight so a long word does not outweigh a short one.
  const each = word.weight / Math.sqrt(grams.length);
  for (const gram of grams) tally(block, `g:${gram}`, each);
}

/** Extracts the four feature blocks of a text. */
export function textFeatures(text: string): FeatureBlocks {
  const blocks: FeatureBlocks = { words: new Map(), concepts: new Map(), chars: new Map(), bigrams: new Map() };
  let previous: Word | undefined;
  for (const word of contentWords(text)) {
    const weight = word.compound ? word.weight * 0.5 : word.weight;
    tally(blocks.words, `w:${word.stem}`, weight);
    for (const concept of conceptsOf(word.stem)) tally(blocks.concepts, `c:${concept}`, weight);
    if (word.compound) continue;
    addCharNgrams(blocks.chars, word);
    if (word.dense) {
      previous = undefined;
      continue;
    }
    if (previous !== undefined) {
      tally(blocks.bigrams, `b:${previous.stem}_${word.stem}`, Math.sqrt(previous.weight * word.weight));
    }
    previous = word;
  }
  return blocks;
}
