/**
 * Where the CLI writes: results to stdout, messages and progress to stderr. Commands get these
 * sinks from the entry (process streams) so nothing else writes to the process directly.
 */

export interface TextSink {
  write(text: string | Uint8Array): unknown;
  /** True when the sink is a terminal (progress is shown only there). */
  isTTY?: boolean;
}

export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
}

/** Pretty JSON with a final newline (what every `--format json` prints). */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
