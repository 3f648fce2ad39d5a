import { ParcelError } from "../errors.js";

export interface FetchJsonOptions {
  signal?: AbortSignal;
  /** Attempts on a 5xx answer or a network error (default 3). */
  attempts?: number;
}

/** A carrier API answered with an HTTP error status. */
export class HttpStatusError extends ParcelError {
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super("HTTP_STATUS", `${url} answered ${status}`);
    this.name = "HttpStatusError";
  }

  get retryable(): boolean {
    return this.status >= 500 || this.status === 429;
  }
}

/** GETs `url` and parses the JSON body; 5xx and 429 answers and network errors are retried with backoff. */
export async function fetchJson<T>(url: string, options: FetchJsonOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 3;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const response = await fetch(url, { signal: options.signal, headers: { accept: "application/json" } });
      if (!response.ok) throw new HttpStatusError(url, response.status);
      return (await response.json()) as T;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (error instanceof HttpStatusError && !error.retryable) throw error;
      lastError = error;
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
  throw new ParcelError("HTTP_FAILED", `GET ${url} failed after ${attempts} attempts`, { cause: lastError });
}
