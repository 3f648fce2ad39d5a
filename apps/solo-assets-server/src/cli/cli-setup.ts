/** What the `solo-assets` program gets from its entry: streams, configuration, version. */
import type { SoloConfig } from "../config.js";
import type { SoloServices } from "../services.js";

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface CliSetup {
  io: CliIo;
  /** Reads the configuration (from the environment, in the entry) when a command needs it. */
  config: () => SoloConfig;
  version: string;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); the dashboard waits on it. */
  waitForStop: () => Promise<string>;
}

/** Services for one command, disposed afterwards. */
export async function withServices<T>(setup: CliSetup, open: (config: SoloConfig) => SoloServices, work: (services: SoloServices) => Promise<T>): Promise<T> {
  const services = open(setup.config());
  try {
    return await work(services);
  } finally {
    await services.dispose();
  }
}

/** Repeated options (`--tag a --tag b`) collect into a list. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function positiveInt(name: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got '${value}'`);
    return n;
  };
}
