/**
 * A GGUF file that cannot be read. Every message starts with the file name, so a log line or a
 * tool error says which of several files (model, adapters) is broken.
 */
export class GgufFormatError extends Error {
  override readonly name: string = "GgufFormatError";
  /** The file that could not be read. */
  readonly file: string;
  /** What is wrong, without the file name. */
  readonly problem: string;
  /** The byte offset where reading failed, when known. */
  readonly offset: number | undefined;

  constructor(file: string, detail: string, offset?: number) {
    const problem = `${detail}${offset === undefined ? "" : ` (at byte ${offset})`}`;
    super(`${file}: ${problem}`);
    this.file = file;
    this.problem = problem;
    this.offset = offset;
  }
}

/** The file ends before what its header announces (an interrupted download or copy). */
export class GgufTruncatedError extends GgufFormatError {
  override readonly name: string = "GgufTruncatedError";
}

/** The bytes are there but do not form a GGUF header this reader understands. */
export class GgufCorruptError extends GgufFormatError {
  override readonly name: string = "GgufCorruptError";
}
