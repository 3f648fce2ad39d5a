/**
 * The one interface every embedding backend implements (built-in hashing, Gemini, GGUF through
 * LlamaEngine). Backend-neutral: nothing here knows about HTTP, models on disk or SDKs.
 */

/** What a text will be used for. Asymmetric backends (Gemini) embed the two differently. */
export type EmbedTask = "document" | "query";

export const EMBED_TASKS: readonly EmbedTask[] = ["document", "query"];

export interface EmbedOptions {
  task: EmbedTask;
  /** Cancellation or a deadline (see `withDeadline`); the work stops when it aborts. */
  signal?: AbortSignal | undefined;
}

export interface Embedder {
  /**
   * The model name. Recorded with every stored vector (see `toStoredVector`); two vectors are
   * only comparable when model and dimension both match.
   */
  readonly model: string;
  /** The length of every vector this embedder returns. */
  readonly dimension: number;
  /**
   * One vector per text, in the order given, each of length `dimension` and L2 norm 1.
   * An empty list gives an empty list without any work. Fails with a `ToolError`:
   * `INVALID_INPUT` for bad arguments, `UPSTREAM_ERROR` when a service behind it fails,
   * and the signal's reason (a `TIMEOUT` ToolError unless the caller aborted with another) when
   * the signal aborts.
   */
  embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]>;
  /** Releases models, sockets or clients. Calling `embed` afterwards is a programmer error. */
  dispose?(): Promise<void> | void;
}
