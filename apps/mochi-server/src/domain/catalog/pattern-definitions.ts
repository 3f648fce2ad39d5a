import type { PatternName } from "../analysis/source-facts.js";

export interface PatternDefinition {
  title: string;
  /** What the construct is and how the analyzers recognise it. */
  description: string;
}

/** The patterns the analyzers recognise; a pattern enters the catalog when it occurs at least twice. */
export const PATTERN_DEFINITIONS: Readonly<Record<PatternName, PatternDefinition>> = {
  "abort-signal": {
    title: "Cancellation with AbortSignal",
    description:
      "Functions take an AbortSignal so callers can stop long work (deadlines, client cancellation); the signal is passed down into the work itself.",
  },
  "abstract-base-class": {
    title: "Abstract base class",
    description:
      "An abstract class (TS `abstract class`, Python `ABC`, Java `abstract class`) defines what subclasses must implement and shares the rest.",
  },
  "custom-error-class": {
    title: "Custom error classes",
    description:
      "Failures are thrown as the project's own error classes (extending Error/Exception, or implementing Go's `Error()`), which carry a code or context that callers can test for.",
  },
  "data-class": {
    title: "Data classes",
    description: "Plain data carriers declared with `@dataclass`, NamedTuple/TypedDict or Java records instead of hand-written classes.",
  },
  "definition-object": {
    title: "Definition objects",
    description:
      "Things are declared as one object passed to a `defineX({...})` helper and exported as a constant, so a list or a loop can register them all.",
  },
  "discriminated-union": {
    title: "Discriminated unions",
    description:
      "Union types whose members share a literal tag property (`kind`, `type`, `state`), narrowed with `switch`/`if` on the tag; Rust enums play the same role.",
  },
  "disposable-resource": {
    title: "Disposable resources",
    description:
      "Objects that hold resources expose `dispose()`/`close()` (or `Symbol.asyncDispose`, `__exit__`, `Drop`, `AutoCloseable`) and are released deterministically.",
  },
  "error-handling": {
    title: "Error handling blocks",
    description:
      "try/catch (try/except, `if err != nil`, `match` on Result) blocks; the best examples convert a low-level failure into the project's own error and rethrow or return it.",
  },
  "factory-function": {
    title: "Factory functions",
    description:
      "Objects are built by `createX`/`makeX`/`buildX` functions (Go `NewX`, Rust `new`, Java static `of`/`create`) that take their dependencies and return a ready object.",
  },
  "fluent-builder": {
    title: "Fluent builders",
    description: "Methods return `this`/`self` so calls chain (`builder.a().b().build()`).",
  },
  "options-object": {
    title: "Options objects",
    description:
      "Functions and constructors take their settings as one typed options object (`XOptions`, `XConfig`) as the last parameter, with defaults inside.",
  },
  registry: {
    title: "Registries",
    description:
      "A module-level Map or list of definitions, or `register*` functions, collects the things of one kind so they are looked up by name or handled in one loop.",
  },
  "result-type": {
    title: "Result types",
    description:
      "Failures are returned as values: a `Result` union such as `{ ok: true, value } | { ok: false, error }` (Rust `Result<T, E>`), so callers must handle both cases.",
  },
  "schema-validation": {
    title: "Schema validation",
    description: "Inputs are described by schemas (zod `z.object`, Joi, yup, pydantic models) that validate and type them at the boundary.",
  },
};
