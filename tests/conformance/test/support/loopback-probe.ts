/**
 * Probes for the security tests of the HTTP surfaces: raw requests whose Host and Origin the test
 * sets (fetch would not let it set Host), the addresses a port really listens on (from the
 * kernel's socket tables), and connection attempts through this machine's other addresses.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      // One connection per request: a refusal that leaves the body unread may close the socket.
      { host: "127.0.0.1", port, method: options.method ?? "GET", path: options.path ?? "/", headers: options.headers ?? {}, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** `0100007F:1F90` → `127.0.0.1`; IPv6 entries as their 32 hex digits. */
function decodeAddress(hex: string, v6: boolean): string {
  if (!v6) {
    const bytes = hex.match(/../g) ?? [];
    return bytes
      .reverse()
      .map((b) => parseInt(b, 16))
      .join(".");
  }
  return hex.toLowerCase();
}

/**
 * The local addresses with a socket listening on `port` (TCP state 0A), read from
 * /proc/net/tcp and /proc/net/tcp6 (Linux). IPv6 addresses come back as 32 hex digits.
 */
export function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const [file, v6] of [
    ["/proc/net/tcp", false],
    ["/proc/net/tcp6", true],
  ] as const) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local === undefined || fields[3] !== "0A") continue;
      const [address = "", portHex = ""] = local.split(":");
      if (parseInt(portHex, 16) === port) found.push(decodeAddress(address, v6));
    }
  }
  return found;
}

/** This machine's addresses other than 127.0.0.1: every interface's, plus 127.0.0.2 and ::1. */
export function otherAddresses(): string[] {
  const addresses = new Set<string>(["127.0.0.2", "::1"]);
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) {
      if (info.address === "127.0.0.1" || info.address.startsWith("fe80:")) continue;
      addresses.add(info.address);
    }
  }
  return [...addresses];
}

/** "connected", or the error code of the failed connection (ECONNREFUSED expected). */
export function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3_000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve("ETIMEDOUT");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Asserts shape for the CORS check: the header names a response carries that would open it cross-origin. */
export function corsHeaders(answer: RawAnswer): string[] {
  return Object.keys(answer.headers).filter((name) => name.toLowerCase().startsWith("access-control-"));
}
