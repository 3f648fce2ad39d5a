import { readFileSync } from "node:fs";

/** User plus system CPU time of a process, in seconds (Linux: /proc/<pid>/stat, 100 ticks a second). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Resolves once `stderr()` (from offset `from` on) holds a line matching `pattern`; returns that
 * line. Throws after `timeoutMs`, quoting what the process wrote.
 */
export async function stderrLine(
  stderr: () => string,
  pattern: RegExp,
  from = 0,
  timeoutMs = 60_000,
  name = "the server",
): Promise<string> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const line = stderr()
      .slice(from)
      .split("\n")
      .find((l) => pattern.test(l));
    if (line !== undefined) return line;
  }
  throw new Error(`no line matching ${pattern} on ${name}'s stderr within ${timeoutMs} ms:\n${stderr().slice(from, from + 4_000)}`);
}
