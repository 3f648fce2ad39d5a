import { CATCH_STYLES, type FileFacts } from "../analysis/source-facts.js";
import type { Convention } from "./catalog-schema.js";
import { Counter, formatTop } from "./counting.js";

/** Error-handling style: what is thrown, custom error classes, what catch blocks do, errors as values. */
export function errorConvention(facts: readonly FileFacts[]): Convention {
  const thrown = new Counter();
  const catches = new Counter();
  let tryBlocks = 0;
  let promiseCatches = 0;
  let errorValues = 0;
  let errorChecks = 0;
  const customClasses = new Set<string>();
  for (const file of facts) {
    for (const name of file.errors.thrown) thrown.add(name);
    for (const style of CATCH_STYLES) catches.add(style, file.errors.catches[style]);
    tryBlocks += file.errors.tryBlocks;
    promiseCatches += file.errors.promiseCatches;
    errorValues += file.errors.errorValues;
    errorChecks += file.errors.errorChecks;
    for (const hit of file.patterns)
      if (hit.pattern === "custom-error-class") customClasses.add(hit.symbol.slice(hit.symbol.lastIndexOf(".") + 1));
  }
  const classes = [...customClasses].sort();
  const throws = thrown.total;
  const values = errorValues + errorChecks;
  const style = throws === 0 && values === 0 ? "none" : values > throws ? "error values" : "exceptions";
  const rules: string[] = [];
  if (throws > 0) rules.push(`Failures are thrown: ${throws} throw/raise/panic sites; most thrown: ${formatTop(thrown.top(6))}`);
  if (classes.length > 0)
    rules.push(`Custom error classes: ${classes.slice(0, 12).join(", ")}${classes.length > 12 ? ` and ${classes.length - 12} more` : ""}`);
  const caught = catches.total;
  if (tryBlocks > 0) {
    rules.push(
      `${tryBlocks} try blocks; of their ${caught} catch blocks ${CATCH_STYLES.map((s) => `${catches.get(s)} ${CATCH_LABEL[s]}`).join(", ")}`,
    );
  }
  if (promiseCatches > 0) rules.push(`${promiseCatches} promise .catch() handlers`);
  if (errorValues > 0)
    rules.push(`Failures returned as values: ${errorValues} (\`{ ok: false }\` objects, Go \`return …, err\`, Rust \`Err(…)\`)`);
  if (errorChecks > 0) rules.push(`${errorChecks} checks of returned errors (Go \`if err != nil\`, Rust \`?\`)`);
  const summary =
    style === "none"
      ? "No error handling was found."
      : `Errors are mostly ${style === "exceptions" ? "thrown as exceptions" : "returned as values"}` +
        (classes.length > 0 ? `, using the project's own error classes (${classes.slice(0, 4).join(", ")})` : "") +
        (tryBlocks > 0 ? `; catch blocks mostly ${catches.top(1)[0]?.[0] ?? "handle"}` : "") +
        ".";
  return {
    name: "error-handling",
    title: "Error handling",
    summary,
    rules,
    details: {
      style,
      throws,
      thrown: Object.fromEntries(thrown.top(15)),
      customErrorClasses: classes,
      tryBlocks,
      catches: Object.fromEntries(CATCH_STYLES.map((s) => [s, catches.get(s)])),
      promiseCatches,
      errorValues,
      errorChecks,
    },
  };
}

const CATCH_LABEL: Record<(typeof CATCH_STYLES)[number], string> = {
  rethrow: "rethrow or wrap",
  fallback: "return a fallback",
  handle: "handle in place",
  swallow: "swallow",
};
