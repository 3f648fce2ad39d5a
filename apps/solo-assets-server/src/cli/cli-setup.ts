/**
 * What the `solo-assets` program gets from its entry (streams, configuration, version) and the
 * option parsers its commands share. Light on purpose: `--help` loads this, commander and the
 * command definitions, never the library (each command's action imports its implementation).
 */
import { InvalidArgumentError } from "commander";
import type { SoloAssetsConfig } from "../config.js";

export interface CliIo {
  stdout: { write(text: string): unknown };
  /** `isTTY`: progress is shown as one line that is replaced, and only on a terminal. */
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

export interface CliSetup {
  io: CliIo;
  /** Reads the configuration (from the environment, in the entry) when a command needs it. */
  config: () => SoloAssetsConfig | Promise<SoloAssetsConfig>;
  version: string;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); the dashboard waits on it. */
  waitForStop: () => Promise<string>;
}

/** Repeated options (`--tag a --tag b`) collect into a list. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A whole number ≥ 0; anything else is bad usage (exit 2). */
export function positiveInt(name: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isInteger(n) || n < 0)
      throw new InvalidArgumentError(`${name} must be a whole number, got '${value}'.`);
    return n;
  };
}

/** One of `choices`; anything else is bad usage (exit 2). */
export function oneOf<T extends string>(name: string, choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!choices.includes(value as T)) throw new InvalidArgumentError(`${name} must be one of ${choices.join(", ")}, got '${value}'.`);
    return value as T;
  };
}
