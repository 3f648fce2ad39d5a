/** Files and their TS parses, read once per call however many checks name them. */
import { isToolError } from "@local-mcp/core";
import type { PathGuard, TextFile } from "../paths/path-guard.js";
import { parseSource, type ParsedSource } from "../ts/source-file.js";

export class SourceCache {
  private readonly files = new Map<string, Promise<TextFile | undefined>>();
  private readonly parsed = new Map<string, Promise<ParsedSource>>();

  constructor(readonly guard: PathGuard) {}

  /** The file, or undefined when it does not exist; forbidden, binary or oversized files throw. */
  file(given: string): Promise<TextFile | undefined> {
    let entry = this.files.get(given);
    if (!entry) {
      entry = this.guard.readText(given).catch((error: unknown) => {
        if (isToolError(error) && error.code === "NOT_FOUND") return undefined;
        throw error;
      });
      this.files.set(given, entry);
    }
    return entry;
  }

  parse(file: TextFile): Promise<ParsedSource> {
    let entry = this.parsed.get(file.absolute);
    if (!entry) {
      entry = parseSource(file.absolute, file.text);
      this.parsed.set(file.absolute, entry);
    }
    return entry;
  }

  /** Every distinct file read so far (for the token estimate). */
  async readFiles(): Promise<TextFile[]> {
    const all = await Promise.all(this.files.values());
    return [...new Map(all.filter((f): f is TextFile => f !== undefined).map((f) => [f.absolute, f])).values()];
  }
}
