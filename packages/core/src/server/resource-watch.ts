/**
 * Change notifications for resources, driven by content hashes (issue 15 item 4).
 *
 * A resource's content can change under the client at any time (an editor saves a document, git
 * checks out a branch, another server writes the catalog). While somebody watches — a 2025-era
 * `resources/subscribe`, a 2026-07-28 `subscriptions/listen` naming the resource, or a listener
 * of the resource list — the watch reads what it watches every `pollMs` and compares the content
 * hash with the last one seen (the same hash reads carry as their version): a different hash,
 * or a resource that is gone, is a change. Nothing is polled while nobody watches.
 *
 * Polling the content, not file events, keeps it one mechanism for every resource whatever backs
 * it (files, a database, generated text), and it cannot report a change that is not one (a save
 * of the same bytes, a touch) or miss one that a watcher of the wrong file would.
 */
import type { Logger } from "../logger.js";

export type ResourceChange = { kind: "updated"; uri: string } | { kind: "list_changed" };

export interface ResourceWatchOptions {
  /** How often watched resources are compared; 2 s if unset. */
  pollMs?: number;
  /** The content hash of `uri` now, or undefined when it does not exist. */
  versionOf: (uri: string) => Promise<string | undefined>;
  /** The content hash of the resource list now. */
  listVersion: () => Promise<string>;
  logger?: Logger;
}

export const DEFAULT_RESOURCE_POLL_MS = 2_000;
/**
 * Most resources watched at once, over all clients: each is read every poll, so a client naming
 * thousands (a listen's `resourceSubscriptions` is a client-made list) cannot make the server read
 * without end. Past it a new watch is refused (logged); the ones already watched go on.
 */
export const MAX_WATCHED_RESOURCES = 1_000;

interface Watched {
  count: number;
  /** Settles once the first hash is known. */
  baseline?: Promise<void>;
  /** The hash last seen; null when it did not exist; undefined before the first look. */
  version?: string | null;
}

export class ResourceWatch {
  private readonly resources = new Map<string, Watched>();
  private readonly list: Watched = { count: 0 };
  private readonly listeners = new Set<(change: ResourceChange) => void>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: ResourceWatchOptions) {}

  /** Hears every change found, whoever watches. Returns the unsubscribe. */
  onChange(listener: (change: ResourceChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Watches one resource until the returned release is called (counted: many may watch one). */
  watch(uri: string): () => void {
    if (!this.resources.has(uri) && this.resources.size >= MAX_WATCHED_RESOURCES) {
      this.options.logger?.warn(`not watching ${uri.slice(0, 200)}: ${MAX_WATCHED_RESOURCES} resources are watched already`);
      return () => undefined;
    }
    const watched = this.resources.get(uri) ?? { count: 0 };
    this.resources.set(uri, watched);
    watched.count += 1;
    if (watched.count === 1) watched.baseline = this.baseline(uri, watched);
    this.schedule();
    return once(() => {
      watched.count -= 1;
      if (watched.count === 0 && this.resources.get(uri) === watched) this.resources.delete(uri);
    });
  }

  /**
   * Settles once the hash `uri` is compared against is known: a subscription answered after it
   * cannot miss a change made right after the answer.
   */
  async ready(uri: string): Promise<void> {
    await this.resources.get(uri)?.baseline;
  }

  /** Watches the resource list until the returned release is called. */
  watchList(): () => void {
    this.list.count += 1;
    if (this.list.count === 1) {
      this.list.version = undefined;
      void this.options.listVersion().then(
        (version) => (this.list.version ??= version),
        () => undefined,
      );
    }
    this.schedule();
    return once(() => {
      this.list.count -= 1;
    });
  }

  /** Resources watched now (for tests and the log). */
  get watching(): { resources: string[]; list: boolean } {
    return { resources: [...this.resources.keys()], list: this.list.count > 0 };
  }

  /** Compares everything watched now (what each poll does); resolves when done. */
  async check(): Promise<void> {
    this.polling ??= this.compare().finally(() => (this.polling = undefined));
    return this.polling;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  private async baseline(uri: string, watched: Watched): Promise<void> {
    const version = await this.options.versionOf(uri).catch(() => undefined);
    watched.version ??= version ?? null;
  }

  private schedule(): void {
    if (this.closed || this.timer || !this.busy()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.check().finally(() => this.schedule());
    }, this.options.pollMs ?? DEFAULT_RESOURCE_POLL_MS);
    // Watching never keeps a process alive.
    this.timer.unref();
  }

  private busy(): boolean {
    return this.resources.size > 0 || this.list.count > 0;
  }

  private async compare(): Promise<void> {
    for (const [uri, watched] of [...this.resources]) {
      const now = (await this.options.versionOf(uri)) ?? null;
      if (watched.version === undefined) {
        watched.version = now;
        continue;
      }
      if (now !== watched.version) {
        watched.version = now;
        this.emit({ kind: "updated", uri });
      }
    }
    if (this.list.count > 0) {
      try {
        const now = await this.options.listVersion();
        if (this.list.version !== undefined && now !== this.list.version) this.emit({ kind: "list_changed" });
        this.list.version = now;
      } catch (error) {
        this.options.logger?.warn("listing resources for change notifications failed", { error });
      }
    }
  }

  private emit(change: ResourceChange): void {
    this.options.logger?.debug(`resource change: ${change.kind === "updated" ? change.uri : "list changed"}`);
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.options.logger?.warn("a resource change listener failed", { error });
      }
    }
  }
}

function once(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}

/**
 * Starts the watches a 2026-07-28 `subscriptions/listen` asks for (its `notifications` filter:
 * `resourcesListChanged`, `resourceSubscriptions`); returns their release, for when the listen
 * ends. A malformed filter watches nothing (the SDK answers it with an error).
 */
export function watchListen(watch: ResourceWatch, params: unknown): () => void {
  const filter = (params as { notifications?: { resourcesListChanged?: unknown; resourceSubscriptions?: unknown } } | undefined)
    ?.notifications;
  const releases: (() => void)[] = [];
  if (filter?.resourcesListChanged === true) releases.push(watch.watchList());
  if (Array.isArray(filter?.resourceSubscriptions)) {
    for (const uri of new Set(filter.resourceSubscriptions)) if (typeof uri === "string") releases.push(watch.watch(uri));
  }
  return () => {
    for (const release of releases.splice(0)) release();
  };
}
