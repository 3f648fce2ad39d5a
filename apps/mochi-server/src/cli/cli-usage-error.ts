/** A mistake in the command line: the CLI prints it and exits with status 2. */
export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
}
