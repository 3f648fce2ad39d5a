export interface UnbuiltMainOptions {
  bin: string;
  version: string;
  summary: string;
  /** What is missing and where it is tracked, e.g. "its 19 tools arrive with issue #4". */
  status: string;
  argv?: readonly string[];
}

/** Exit status of a bin whose app is not built yet (EX_UNAVAILABLE from sysexits.h). */
export const EXIT_NOT_BUILT = 69;

/**
 * The `main` of a bin whose app has no tools yet: it says so instead of pretending to serve.
 * `--help` and `--version` answer truthfully; anything else explains and exits with 69.
 */
export function runUnbuiltMain(options: UnbuiltMainOptions): void {
  const args = options.argv ?? process.argv.slice(2);
  const status = `${options.bin}: not built yet — ${options.status}.`;
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${options.bin} ${options.version} — ${options.summary}\n\nStatus: ${status}\n`);
    return;
  }
  if (args.includes("--version")) {
    process.stdout.write(`${options.version}\n`);
    return;
  }
  process.stderr.write(`${status}\nSee the README's list of servers for what works today.\n`);
  process.exitCode = EXIT_NOT_BUILT;
}
