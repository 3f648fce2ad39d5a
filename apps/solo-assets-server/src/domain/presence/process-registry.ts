/**
 * Which processes use the library (for the dashboard's status): each MCP server and dashboard
 * writes `<processesDir>/<pid>.json` when it starts and removes it when it stops. A file whose
 * process is gone (a crash, kill -9) is ignored and cleaned up by the next reader.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

export interface ProcessEntry {
  pid: number;
  kind: "mcp" | "dashboard" | "cli";
  version: string;
  started_at: string;
  host: string;
  /** e.g. "stdio" or "http://127.0.0.1:3918/". */
  detail?: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class ProcessRegistry {
  private registered: string | undefined;

  constructor(private readonly dir: string) {}

  /** Records this process; returns a function that removes the record (also run at exit). */
  register(entry: Omit<ProcessEntry, "pid" | "started_at" | "host">): () => void {
    mkdirSync(this.dir, { recursive: true });
    const path = join(this.dir, `${process.pid}.json`);
    const record: ProcessEntry = { ...entry, pid: process.pid, started_at: new Date().toISOString(), host: hostname() };
    writeFileSync(path, JSON.stringify(record));
    this.registered = path;
    const remove = () => {
      if (this.registered !== path) return;
      this.registered = undefined;
      rmSync(path, { force: true });
      process.off("exit", remove);
    };
    process.on("exit", remove);
    return remove;
  }

  /** The live processes, oldest first; records of dead ones on this host are removed. */
  list(): ProcessEntry[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((name) => /^\d+\.json$/.test(name));
    } catch {
      return [];
    }
    const host = hostname();
    const out: ProcessEntry[] = [];
    for (const name of names) {
      const path = join(this.dir, name);
      let entry: ProcessEntry;
      try {
        entry = JSON.parse(readFileSync(path, "utf8")) as ProcessEntry;
      } catch {
        continue;
      }
      if (entry.host === host && !alive(entry.pid)) {
        rmSync(path, { force: true });
        continue;
      }
      out.push(entry);
    }
    return out.sort((a, b) => a.started_at.localeCompare(b.started_at));
  }
}
