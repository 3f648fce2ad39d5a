import { stem } from "./english-stemmer.js";

/**
 * A small built-in thesaurus for the built-in embedder: groups of English words (and code
 * abbreviations) that name one concept. A word in a group adds a shared "concept" feature, so
 * "remove every temp file from a folder" meets "delete all temporary files in a directory" even
 * though they share almost no words. Fixed, not learned from any corpus: vectors never change
 * as a library grows. A word may sit in several groups. Changing the groups changes vectors:
 * bump the LocalEmbedder version.
 */
const GROUPS: Readonly<Record<string, string>> = {
  convert: "convert conversion transform translate turn change cast coerce",
  parse: "parse parser decode deserialize deserialise read interpret unmarshal extract tokenize",
  serialize: "serialize serialise encode stringify marshal dump format write",
  text: "text string str chars characters textual",
  date: "date datetime time timestamp day calendar clock epoch",
  delete: "delete remove erase drop unlink purge clear clean discard destroy rm wipe",
  create: "create make build generate construct init initialize initialise produce",
  find: "find search lookup locate query seek grep match filter detect",
  fetch: "fetch download retrieve get request pull load http curl",
  upload: "upload send post push put publish transmit submit",
  file: "file document path disk filesystem fs contents",
  directory: "directory folder dir path subdirectory",
  temp: "temp temporary tmp scratch cache transient",
  config: "config configuration settings setting options preferences conf cfg ini",
  sort: "sort order rank arrange",
  big: "big large huge larger bigger largest biggest max maximum greatest highest descending long",
  small: "small little tiny smaller smallest min minimum least lowest ascending short",
  number: "number integer int float numeric digit amount num decimal",
  list: "list array sequence collection vector items elements slice",
  mapping: "dictionary dict hashmap object record mapping",
  hash: "hash checksum digest md5 sha sha1 sha256 crc fingerprint md5sum",
  compute: "compute calculate calc count measure evaluate determine sum total",
  check: "check validate verify test ensure assert valid validation confirm",
  email: "email mail inbox smtp",
  message: "message notification notify alert email",
  user: "user account person customer member",
  network: "network http https socket websocket connection connect internet web online url server api tcp",
  retry: "retry repeat again reattempt backoff",
  delay: "delay wait sleep pause timeout backoff interval",
  error: "error failure fail exception fault crash bug broken unsuccessful",
  image: "image picture photo photograph thumbnail png jpeg jpg pixel bitmap icon",
  resize: "resize scale shrink enlarge crop thumbnail",
  audio: "audio sound music mp3 wav song play playback speaker",
  video: "video movie film clip mp4",
  database: "database db sql postgres postgresql mysql sqlite duckdb",
  split: "split break separate divide chunk partition apart",
  join: "join concatenate concat merge combine append",
  word: "word term token vocabulary",
  sentence: "sentence phrase paragraph",
  weather: "weather forecast rain rainy snow sunny wind windy storm cloudy",
  day: "tomorrow today yesterday tonight week weekend",
  food: "food recipe cook cooking bake baking egg eggs flour meal kitchen dish bread cake",
  drink: "tea coffee drink brew brewing cup beverage kettle",
  money: "money price cost pay payment stock market finance dollar bank invest",
  computer: "computer laptop notebook pc desktop",
  battery: "battery charge charging charger power energy",
  fast: "fast faster quick quicker quickly rapid rapidly speed swift soon",
  slow: "slow slower slowly lag latency sluggish",
  garden: "garden plant tomato tomatoes flower seed grow soil",
  start: "start begin launch run initiate boot spawn execute",
  stop: "stop end terminate kill halt exit shutdown abort cancel",
  show: "show display print render output draw view",
  web: "html markdown webpage page dom css browser website",
  learning: "neural model train training learning deep gradient ai ml mnist dataset",
  location: "location gps coordinate coordinates latitude longitude geo place position",
  distance: "distance far near",
  temperature: "temperature celsius fahrenheit kelvin degree degrees heat cold hot",
  compress: "compress compression zip gzip archive deflate unzip tar",
  encrypt: "encrypt decrypt encryption cipher crypto aes",
  auth: "login logout authenticate authentication auth signin password credential credentials",
  structured: "json yaml xml csv toml",
  regex: "regex regexp regular expression pattern",
  copy: "copy duplicate clone replicate",
  move: "rename move mv relocate",
  concurrency: "thread threads concurrent parallel async asynchronous promise await worker",
  memory: "memory ram heap allocation leak",
  env: "environment env variable variables",
  shell: "command cli shell terminal bash script subprocess process",
  vehicle: "car automobile vehicle truck drive driving",
  animal: "cat dog pet animal kitten puppy",
  health: "doctor hospital medicine sick ill health disease",
};

function buildConceptTable(): ReadonlyMap<string, readonly string[]> {
  const table = new Map<string, string[]>();
  for (const [concept, words] of Object.entries(GROUPS)) {
    for (const word of words.split(" ")) {
      const key = stem(word);
      const list = table.get(key) ?? [];
      if (!list.includes(concept)) list.push(concept);
      table.set(key, list);
    }
  }
  return table;
}

/** Stem -> concept groups; computed once from `GROUPS`, on first use rather than at import. */
let conceptsByStem: ReadonlyMap<string, readonly string[]> | undefined;

/** The concept groups a stemmed word belongs to. */
export function conceptsOf(wordStem: string): readonly string[] {
  return (conceptsByStem ??= buildConceptTable()).get(wordStem) ?? [];
}
