/**
 * What a command runs with: the project root (from `--project`, else the default the entry
 * read from CATDOC_PROJECT_PATH or the working directory), the store over it, and the output
 * sinks. Commands write results with `out`, messages with `note`.
 */
import { resolve } from "node:path";
import type { CatDocConfig } from "../config.js";
import type { CatDocProject, CatDocStore } from "../domain/index.js";
import { jsonText } from "./cli-io.js";
import type { CliIo } from "./cli-io.js";
import { Progress } from "./progress.js";

export class CommandContext {
  readonly root: string;
  /** The app's configuration read from the environment (its projectPath is the default root). */
  readonly config: CatDocConfig;
  readonly io: CliIo;
  readonly progress: Progress;
  private storePromise: Promise<CatDocStore> | undefined;

  constructor(root: string, io: CliIo, config: CatDocConfig) {
    this.root = resolve(root);
    this.config = config;
    this.io = io;
    this.progress = new Progress(io.stderr);
  }

  /** The store over the project (loaded with the domain when a command first needs it, never for --help). */
  store(): Promise<CatDocStore> {
    this.storePromise ??= import("../domain/store/store.js").then(({ CatDocStore }) => new CatDocStore(this.root));
    return this.storePromise;
  }

  /** The project as it is on disk (NOT_FOUND "not initialized" when there is none). */
  load(): Promise<CatDocProject> {
    return this.progress.around("Reading .catdoc/category.yaml", async () => (await this.store()).load());
  }

  /** A result line or block on stdout. */
  out(text: string): void {
    this.io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  /** Result bytes on stdout as they are (UTF-8 text a cache kept). */
  outBytes(bytes: Uint8Array): void {
    this.io.stdout.write(bytes);
  }

  json(value: unknown): void {
    this.io.stdout.write(jsonText(value));
  }

  /** A message for the person at the terminal, on stderr. */
  note(text: string): void {
    this.io.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
  }
}
