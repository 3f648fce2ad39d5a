import { ToolError } from "../errors.js";

/**
 * The error an aborted embedding call rejects with: the signal's reason when it is already a
 * ToolError (`withDeadline` aborts with a `TIMEOUT` one), else a `TIMEOUT` ToolError saying the
 * call was cancelled, as core's deadline guard does for client cancellation.
 */
export function abortError(signal: AbortSignal, what: string): ToolError {
  const reason: unknown = signal.reason;
  if (reason instanceof ToolError) return reason;
  return new ToolError("TIMEOUT", `${what} was cancelled before it finished.`, {
    details: { cancelled: true },
  });
}

export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw abortError(signal, what);
}
