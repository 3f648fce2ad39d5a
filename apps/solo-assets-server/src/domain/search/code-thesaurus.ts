/**
 * A small fixed thesaurus of general programming vocabulary for the built-in search (issue 19):
 * groups of words that name one concept in requests and docstrings ("credentials"/"password",
 * "folder"/"directory", "bucket"/"group"), and recognisers for the shapes of literals people
 * paste into a request ("2h15m" is a duration, "#ff8800" a colour, "10.0.0.0/8" a network).
 * Written from general vocabulary, not from any labelled query; fixed, so stored vectors stay valid
 * as a library grows. Changing it changes vectors: bump BUILTIN_EMBEDDER_VERSION (builtin-embedder.ts).
 *
 * Used twice: the built-in embedder appends each group's head word to the text it embeds
 * (documents and queries alike), and the keyword ranking adds every member of a query word's
 * groups to the query's terms.
 */
import { keywordTerms } from "./keyword-terms.js";

/** head word: members (the head is a member too). */
const GROUPS: Readonly<Record<string, string>> = {
  password: "password passphrase credential credentials secret login passwd",
  hash: "hash digest checksum fingerprint sha256 sha md5 hmac",
  derive: "derive derivation pbkdf2 kdf stretch bcrypt scrypt",
  encrypt: "encrypt decrypt cipher encryption crypto",
  random: "random randomise randomize shuffle sample draw chance probability stochastic seed",
  unique: "unique uuid guid identifier id distinct",
  csv: "csv comma spreadsheet excel tabular tsv delimited",
  json: "json jsonl ndjson",
  header: "header headers heading column columns field fields",
  record: "record records row rows entry entries item items element elements",
  dictionary: "dictionary dict mapping map hashmap lookup table associative",
  list: "list array sequence vector tuple collection iterable",
  group: "group bucket categorize categorise cluster classify partition",
  key: "key property attribute field",
  sort: "sort sorted ordered order ascending descending arrange rank",
  search: "search find locate lookup seek bisect bisection",
  split: "split chunk batch divide break partition segment",
  combine: "combine merge join concatenate interleave zip union",
  duplicate: "duplicate repeated dedupe deduplicate redundant",
  remove: "remove delete drop strip discard erase purge evict",
  count: "count tally frequency occurrences histogram number quantity",
  average: "average mean median smooth typical",
  spread: "spread deviation variance dispersion variability",
  scale: "scale rescale normalise normalize range squash",
  similar: "similar similarity overlap distance closeness alike resemblance",
  whitespace: "whitespace space spaces blank blanks tab tabs newline newlines indentation",
  line: "line lines row wrap column",
  text: "text string str characters prose sentence paragraph",
  word: "word noun verb term token",
  plural: "plural pluralize pluralise singular plurals",
  case: "case uppercase lowercase capitalize camel snake kebab",
  accent: "accent accents diacritic diacritics unicode ascii",
  html: "html markup tag tags webpage xml",
  url: "url uri link address href hyperlink",
  query: "query querystring parameters params arguments args",
  http: "http https request response header cookie rest api",
  network: "network subnet cidr ip ipv4 ipv6 lan host",
  email: "email mail e-mail mailbox",
  phone: "phone telephone mobile dial",
  file: "file disk document path",
  directory: "directory folder dir subfolder subdirectory tree",
  archive: "archive zip unzip tar gzip compress extract unpack bundle",
  write: "write save store persist dump",
  read: "read load open parse ingest",
  convert: "convert transform turn translate change cast",
  format: "format render display show print pretty humanize",
  validate: "validate check verify valid validity correct well-formed",
  number: "number integer numeric digit digits numeral figure",
  money: "money currency price cost amount payment finance dollar cents",
  loan: "loan mortgage instalment installment annuity amortise amortize repayment",
  interest: "interest compound savings deposit growth rate",
  card: "card credit luhn",
  date: "date day calendar weekday birthday",
  time: "time duration elapsed seconds minutes hours timestamp clock",
  year: "year annual yearly leap",
  week: "week weekday weekend monday friday",
  schedule: "schedule cron crontab periodic recurring interval",
  cache: "cache caching memoize memoise remember lru ttl expire",
  retry: "retry backoff flaky attempts again repeat",
  throttle: "throttle rate limit limiter bucket quota",
  decorator: "decorator wrapper wrap",
  process: "process subprocess command shell execute run program",
  environment: "environment env variable dotenv",
  config: "config configuration settings options preferences",
  log: "log logs logging access audit",
  version: "version release semver semantic",
  compare: "compare comparison newer older greater equal",
  graph: "graph node nodes edge edges network dag",
  path: "path route shortest cheapest dijkstra",
  dependency: "dependency dependencies prerequisite topological require",
  geometry: "geometry polygon rectangle box area shape point coordinate coordinates",
  matrix: "matrix matrices grid 2d rows transpose",
  rotate: "rotate rotation turn clockwise quarter",
  color: "color colour rgb hsl hue saturation lightness hex pixel",
  image: "image picture photo png jpeg pixels width height",
  browser: "browser user-agent agent chrome firefox safari",
  secret: "secret mask redact hide anonymise anonymize obfuscate",
  statistics: "statistics percentile percent quantile median mean deviation",
  geo: "geo gps latitude longitude globe earth haversine",
  temperature: "temperature celsius fahrenheit degrees centigrade",
  size: "size bytes kilobytes megabytes kb mb gb",
  encode: "encode decode encoding base64 escape",
  git: "git repository repo branch commit",
  prime: "prime divisor divisible factor",
  fast: "fast quickly efficient performance speed",
};

/** Literal shapes and the words they stand for. */
const SHAPES: readonly (readonly [RegExp, string])[] = [
  [/\b\d+\s*(?:h|hr|hrs|m|min|s|sec|ms|d)(?:\s*\d+\s*(?:h|m|s|ms))+\b|\b\d+(?:h|min|ms)\b/i, "duration time"],
  [/#[0-9a-f]{6}\b|#[0-9a-f]{3}\b/i, "color hex"],
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?\b/, "ip network address"],
  [/\b\d{4}-\d{2}-\d{2}\b/, "date"],
  [/\b\d{1,2}:\d{2}(?::\d{2})?\b/, "time clock"],
  [/\?[\w-]+=[^&\s]*(?:&[\w-]+=[^&\s]*)*/, "query url parameters"],
  [/\b\d+\.\d+\.\d+\b/, "version"],
  [/\b[\w.+-]+@[\w-]+\.[\w.]+\b/, "email"],
  [/https?:\/\/\S+/, "url"],
  [/\+?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b/, "phone number"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i, "uuid identifier"],
  [/\b[MDCLXVI]{4,}\b/, "roman numeral"],
  [/[$€£]\s?\d/, "money currency"],
  [/\b\d+(?:\.\d+)?\s?%|\bpercent\b/i, "percentage rate"],
];

interface Table {
  /** term (stemmed like keyword terms) → heads of its groups */
  heads: Map<string, string[]>;
  /** head → member terms */
  members: Map<string, string[]>;
}

let table: Table | undefined;

function buildTable(): Table {
  const heads = new Map<string, string[]>();
  const members = new Map<string, string[]>();
  for (const [head, words] of Object.entries(GROUPS)) {
    const terms = keywordTerms(words);
    members.set(head, terms);
    for (const term of terms) {
      const list = heads.get(term) ?? [];
      if (!list.includes(head)) list.push(head);
      heads.set(term, list);
    }
  }
  return { heads, members };
}

/** The concept words a text implies: its words' group heads, then the words its literals stand for. */
export function conceptWords(text: string): string[] {
  const { heads } = (table ??= buildTable());
  const out = new Set<string>();
  for (const term of keywordTerms(text)) for (const head of heads.get(term) ?? []) out.add(head);
  for (const [shape, words] of SHAPES) if (shape.test(text)) for (const word of words.split(" ")) out.add(word);
  return [...out];
}

/** A query's keyword terms with every member of its words' groups and its literals' words added. */
export function expandQueryTerms(query: string): string[] {
  const { members } = (table ??= buildTable());
  const out = new Set(keywordTerms(query));
  for (const head of conceptWords(query)) {
    for (const term of keywordTerms(head)) out.add(term);
    for (const term of members.get(head) ?? []) out.add(term);
  }
  return [...out];
}
