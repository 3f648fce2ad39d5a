/**
 * The harness's settings, from FUZZ_* variables (the only place that reads the environment):
 * FUZZ_CALLS (calls per server, default 10,000), FUZZ_SEED (a number, or "random"; default fixed,
 * so two runs send the same calls), FUZZ_SERVERS (comma-separated bin or short names),
 * FUZZ_ERA (legacy, modern or both, the default: the protocol eras a server's calls are split
 * between; `--era` on the command line wins), FUZZ_SLACK_MS (time past a deadline still on time,
 * default 2,000), FUZZ_SAVE (0: do not write regression cases), FUZZ_KEEP (1: keep the fixtures'
 * directories), FUZZ_STRICT (1: INTERNAL answers fail every server's run; 0: they are only listed;
 * unset: each target's default, strict for every server today — see `FuzzTarget.strict`).
 */
import { randomInt } from "node:crypto";
import { parseArgs } from "node:util";
import { parseEras, type Era } from "./era.js";

export const DEFAULT_SEED = 20_260_801;

export interface HarnessOptions {
  calls: number;
  seed: number;
  servers: string[];
  /** The protocol eras each server is fuzzed in; its calls are split between them. */
  eras: Era[];
  slackMs: number;
  save: boolean;
  keepDirs: boolean;
  /** FUZZ_STRICT: true (1) or false (0) for every server; undefined: each target's default. */
  failOnInternal: boolean | undefined;
  /** Share of calls that are cheap known-good calls. */
  goldenRate: number;
  /** Share of calls that run expensive real work (solo saves through the gate). */
  expensiveRate: number;
}

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text.trim() === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number ≥ 0 (got '${text}')`);
  return value;
}

function strictSetting(text: string | undefined): boolean | undefined {
  const value = text?.trim() ?? "";
  if (value === "") return undefined;
  if (value === "1") return true;
  if (value === "0") return false;
  throw new Error(`FUZZ_STRICT must be 1 or 0 (got '${text}'); leave it unset for each server's default`);
}

/**
 * The value of `--era X` or `--era=X` in the arguments, if given; anything else there is refused
 * (a bare `--`, which `pnpm fuzz -- --era X` passes on, is skipped).
 */
function eraFlag(argv: readonly string[]): string | undefined {
  const args = argv.filter((arg) => arg !== "--");
  return parseArgs({ args, options: { era: { type: "string" } }, strict: true, allowPositionals: false }).values.era;
}

/** The settings from the environment and, for `pnpm fuzz`, the command line (`--era`). */
export function harnessOptions(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): HarnessOptions {
  const flag = eraFlag(argv);
  const seedText = env.FUZZ_SEED?.trim();
  const seed = seedText === "random" ? randomInt(2 ** 31) : positiveInt("FUZZ_SEED", seedText, DEFAULT_SEED);
  return {
    calls: positiveInt("FUZZ_CALLS", env.FUZZ_CALLS, 10_000),
    seed,
    servers: (env.FUZZ_SERVERS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    eras: flag === undefined ? parseEras(env.FUZZ_ERA, "FUZZ_ERA") : parseEras(flag, "--era"),
    slackMs: positiveInt("FUZZ_SLACK_MS", env.FUZZ_SLACK_MS, 2_000),
    save: env.FUZZ_SAVE !== "0",
    keepDirs: env.FUZZ_KEEP === "1",
    failOnInternal: strictSetting(env.FUZZ_STRICT),
    goldenRate: 0.04,
    expensiveRate: 0.01,
  };
}
