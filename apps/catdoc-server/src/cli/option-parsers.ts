/** Parsers for option values; a bad value is a usage error (commander reports it, exit 2). */
import { InvalidArgumentError, Option } from "commander";

export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < 1) {
    throw new InvalidArgumentError("Expected a positive integer.");
  }
  return number;
}

export function portNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number > 65535)
    throw new InvalidArgumentError("Expected a port number from 0 to 65535 (0: any free port).");
  return number;
}

/** `--format <format>` with its allowed values and default. */
export function formatOption<const T extends string>(choices: readonly T[], defaultValue: T): Option {
  return new Option("-f, --format <format>", "output format").choices(choices).default(defaultValue);
}
