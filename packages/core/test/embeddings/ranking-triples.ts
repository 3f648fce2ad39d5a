/**
 * Query / related / unrelated triples for the built-in embedder's ranking test. "related" is a
 * paraphrase or a same-topic text; "unrelated" shares no topic with the query. Natural language
 * and code-ish descriptions (identifiers in camelCase and snake_case) are both represented.
 */
export interface RankingTriple {
  query: string;
  related: string;
  unrelated: string;
}

export const PARAPHRASE_TRIPLES: readonly RankingTriple[] = [
  {
    query: "parse a date string into a datetime",
    related: "convert text to a date object",
    unrelated: "compute the md5 hash of a file",
  },
  {
    query: "compute the md5 hash of a file",
    related: "md5sum: calculate the checksum of a file's contents",
    unrelated: "parse a date string into a datetime",
  },
  {
    query: "delete all temporary files in a directory",
    related: "remove every temp file from a folder",
    unrelated: "send an email notification to the user",
  },
  {
    query: "read a JSON configuration file from disk",
    related: "load settings from a json config file",
    unrelated: "resize an image to a thumbnail",
  },
  {
    query: "sort a list of numbers in descending order",
    related: "order an array of integers from largest to smallest",
    unrelated: "open a websocket connection to the server",
  },
  {
    query: "function that validates an email address with a regular expression",
    related: "isValidEmail(address): check the e-mail format using a regex",
    unrelated: "calculate the distance between two GPS coordinates",
  },
  {
    query: "HTTP GET request to download a web page",
    related: "fetchUrl fetches the HTML of a page over http",
    unrelated: "train a neural network on the MNIST dataset",
  },
  {
    query: "retry a failed network call with exponential backoff",
    related: "retryWithBackoff: repeat the request after increasing delays when it fails",
    unrelated: "render a markdown document to html",
  },
  {
    query: "count the words in a sentence",
    related: "word_count(text) returns the number of words",
    unrelated: "connect to a postgres database",
  },
  {
    query: "convert temperature from celsius to fahrenheit",
    related: "celsiusToFahrenheit(c): temperature conversion",
    unrelated: "upload a photo to cloud storage",
  },
  {
    query: "split a string by commas",
    related: "splitOnComma: break text apart at each comma",
    unrelated: "play an mp3 audio file",
  },
  {
    query: "The weather will be rainy tomorrow with strong winds",
    related: "Tomorrow's forecast: rain and heavy wind",
    unrelated: "The recipe calls for two eggs and a cup of flour",
  },
  {
    query: "How do I make a cup of tea?",
    related: "steps for brewing tea in a kettle",
    unrelated: "the stock market fell sharply today",
  },
  {
    query: "my laptop battery drains very quickly",
    related: "the notebook computer loses its charge fast",
    unrelated: "I planted tomatoes in the garden",
  },
];

/** Same topic without being a paraphrase. */
export const SAME_TOPIC_TRIPLES: readonly RankingTriple[] = [
  {
    query: "python list comprehension syntax",
    related: "iterating over a list in python with a for loop",
    unrelated: "baking sourdough bread at home",
  },
  {
    query: "gradient descent for training neural networks",
    related: "deep learning models learn their weights by backpropagation",
    unrelated: "renew a passport at the embassy",
  },
  {
    query: "class UserRepository: saves users to a SQL database",
    related: "a query that selects every user row from the accounts table",
    unrelated: "draw a red circle on an HTML canvas",
  },
];

/**
 * Written after the built-in thesaurus was frozen and never used to tune it: a check that the
 * embedder's quality is not an artefact of the triples above.
 */
export const HELD_OUT_TRIPLES: readonly RankingTriple[] = [
  {
    query: "install the package dependencies with npm",
    related: "run npm install to fetch the project's modules",
    unrelated: "the river flooded the village after the storm",
  },
  {
    query: "reverse the characters of a string",
    related: "reverseString(s) returns s backwards",
    unrelated: "schedule a meeting for next monday",
  },
  {
    query: "merge two sorted arrays into one sorted array",
    related: "combine a pair of ordered lists while keeping them sorted",
    unrelated: "measure the voltage across a resistor",
  },
  {
    query: "generate a random password of 16 characters",
    related: "createRandomPassword(length): make a secure random passphrase",
    unrelated: "the football match ended in a draw",
  },
  {
    query: "remove duplicate entries from a list",
    related: "dedupe(items): keep only unique values of an array",
    unrelated: "translate english text to french",
  },
  {
    query: "the train to Paris was delayed by two hours",
    related: "our railway journey to Paris ran two hours late",
    unrelated: "she painted the kitchen walls blue",
  },
  {
    query: "I lost my wallet on the bus this morning",
    related: "my purse went missing during the morning bus ride",
    unrelated: "the compiler reports a syntax error on line 3",
  },
  {
    query: "write log messages to a rotating file",
    related: "RotatingFileLogger appends log lines and rolls files over",
    unrelated: "compute the square root of a number",
  },
  {
    query: "check whether a number is prime",
    related: "isPrime(n): test if n has no divisors other than 1 and itself",
    unrelated: "upload a video to youtube",
  },
  {
    query: "the cat chased the mouse around the house",
    related: "a kitten ran after a mouse in the home",
    unrelated: "interest rates rose by half a percent",
  },
  {
    query: "find the shortest path between two nodes in a graph",
    related: "dijkstra shortest path algorithm on a weighted graph",
    unrelated: "bake chocolate chip cookies",
  },
  {
    query: "convert a PDF document to plain text",
    related: "pdfToText extracts the text content of pdf files",
    unrelated: "feed the dog twice a day",
  },
];
