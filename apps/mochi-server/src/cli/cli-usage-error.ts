/** A mistake in the command line: the CLI prints it as one line (with its code, when it has one) and exits with status 2. */
export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
  constructor(
    message: string,
    /** An error code from core's list (NOT_FOUND, INVALID_INPUT…), printed before the message. */
    readonly code?: string,
  ) {
    super(message);
  }
}
