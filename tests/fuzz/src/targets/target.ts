/**
 * A server under fuzz: its built entry and how to lay out its fixtures in a fresh directory.
 * What the fixtures give the generator (known ids, write-capable fields, symlinks that lead out
 * of the root) and the checks (deadlines, the marker of a file outside the root) come back with
 * them.
 */
import type { GoldenCall } from "../case-generator.js";
import type { PathSandbox } from "../hostile-values.js";
import type { FieldHints } from "../schema-arbitrary.js";

export interface PreparedTarget {
  env: Record<string, string>;
  cwd: string;
  hints: FieldHints;
  /** Property names whose values name files the tool may write. */
  writeFields: ReadonlySet<string>;
  sandbox: PathSandbox;
  /** Names, relative to the root, of symlinks that lead out of it. */
  symlinkNames: readonly string[];
  /** Text of a file outside the root (reached only through traversal or a symlink). */
  sentinel?: string;
  /** Files written outside the served root so far (empty while confinement holds); checked after each call. */
  writesOutside?: () => Promise<string[]>;
  /**
   * A tool's deadline in ms. tools/list does not carry it (core keeps it in the definition), so
   * each target mirrors its server's documented deadlines for the configuration it sets.
   */
  deadlineMs: (tool: string) => number;
  /** Calls that must succeed (not isError); the first is the known-good call after the run. */
  golden: readonly GoldenCall[];
  /**
   * A call that reaches the server's model, sent (uncounted) after every start until it succeeds:
   * a model that loads in the background is ready before the first fuzzed call, so model tools
   * answer from inference rather than NOT_READY while it loads.
   */
  warmUp?: GoldenCall;
  sanitize?: (tool: string, args: unknown) => unknown;
}

export interface FuzzTarget {
  /** The bin's name, e.g. catdoc-mcp. */
  name: string;
  /** Short name accepted by FUZZ_SERVERS, e.g. catdoc. */
  short: string;
  entry: string;
  /**
   * INTERNAL answers fail this server's runs by default (the full run, the short CI run, the
   * saved cases); FUZZ_STRICT=0 or =1 overrides it for every server. True for servers whose
   * strict run is clean, so a new INTERNAL shows up as a failure instead of a line in the report.
   */
  strict: boolean;
  prepare: (dir: string) => Promise<PreparedTarget>;
}

/** The deadline core gives a tool that sets none (ServerDefinition.defaultTimeoutMs unset). */
export const CORE_DEFAULT_DEADLINE_MS = 30_000;

/** Settings every server gets: quiet logs, the default level, no key from the caller's shell. */
export const BASE_ENV: Record<string, string> = {
  LOCAL_MCP_LOG_LEVEL: "warn",
  LOCAL_MCP_RESPONSE_LEVEL: "",
  GOOGLE_API_KEY: "",
  GEMINI_API_KEY: "",
};
