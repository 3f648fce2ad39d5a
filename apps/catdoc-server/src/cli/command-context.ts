/**
 * What a command runs with: the project root (from `--project`, else the default the entry
 * read from CATDOC_PROJECT_PATH or the working directory), the store over it, and the output
 * sinks. Commands write results with `out`, messages with `note`.
 */
import { resolve } from "node:path";
import { CatDocStore } from "../domain/index.js";
import type { CatDocProject } from "../domain/index.js";
import { jsonText } from "./cli-io.js";
import type { CliIo } from "./cli-io.js";
import { Progress } from "./progress.js";

export class CommandContext {
  readonly root: string;
  readonly io: CliIo;
  readonly progress: Progress;
  private storeInstance: CatDocStore | undefined;

  constructor(root: string, io: CliIo) {
    this.root = resolve(root);
    this.io = io;
    this.progress = new Progress(io.stderr);
  }

  get store(): CatDocStore {
    this.storeInstance ??= new CatDocStore(this.root);
    return this.storeInstance;
  }

  /** The project as it is on disk (NOT_FOUND "not initialized" when there is none). */
  load(): Promise<CatDocProject> {
    return this.progress.around("Reading .catdoc/category.yaml", () => this.store.load());
  }

  /** A result line or block on stdout. */
  out(text: string): void {
    this.io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  json(value: unknown): void {
    this.io.stdout.write(jsonText(value));
  }

  /** A message for the person at the terminal, on stderr. */
  note(text: string): void {
    this.io.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
  }
}
