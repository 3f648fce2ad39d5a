/**
 * Terms for the keyword half of search. Function texts and queries go through the same steps:
 * identifiers split ("parseISODate" → parse, iso, date; "to_snake_case" → snake, case),
 * lowercase, stopwords and one-letter words dropped, and a light English stem (plural "-s",
 * "-ies", "-es", "-ing", "-ed") so "sorting"/"sorts"/"sorted" meet. The terms are stored with
 * each function (`search_terms`, `name_terms`) so the keyword score is computed in DuckDB.
 */

const STOPWORDS = new Set(
  (
    "a an and any are as at be been by can could do does each for from get gets given has have how i if in into is it its " +
    "me my no none not of on one or our should so some such than that the their them then there these this those to " +
    "use used uses using was we what when where which while who will with without would you your " +
    "def return returns returned function functions value values self cls true false"
  ).split(" "),
);

function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(sses|xes|ches|shes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("ing") && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/** "sorted" → "sort", "mapped" → "map" (a doubled final consonant left by -ed/-ing). */
function undouble(word: string): string {
  return /([bdfgmnprt])\1$/.test(word) ? word.slice(0, -1) : word;
}

/** Distinct terms of a text, in first-seen order. */
export function keywordTerms(text: string): string[] {
  const words = text
    .normalize("NFKC")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  const out = new Set<string>();
  for (const word of words) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    out.add(stem(word));
  }
  return [...out];
}
