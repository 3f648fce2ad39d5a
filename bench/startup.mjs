// Benchmark (issue #14 item 4, "start fast"): how long each server takes to start, as a user's
// client sees it.
//
// 1. Time to the `initialize` answer of every `*-mcp` bin (catdoc-mcp, local-model-mcp, mochi-mcp,
//    solo-assets-mcp) against @modelcontextprotocol/server-memory started the same way: `node
//    <bin>` through the same MCP SDK client (StdioClientTransport), in the same empty working
//    directory, with the same small environment (PATH, a scratch HOME). Each round starts the
//    reference and the server once, alternating which goes first; 2 warm-up rounds (OS file cache),
//    then the median of 11. Target: server ≤ 0.8× server-memory. Ratios use each server's own
//    paired reference runs, so a machine that slows down in the middle slows both sides.
// 2. Every bin's `--help` (both bins of each app) against `node -e 0`, alternating, median of 11.
//    Target: ≤ 2× `node -e 0`.
//
// Both from the workspace build (apps/*/dist, `pnpm build`) and from the installed packages: every
// publishable package packed with pnpm and installed with plain npm into an empty folder outside
// the workspace (scripts/pack-install.mjs; minutes, npm copies node-llama-cpp's binaries).
//
// Exit status: 0 only when every target is met; each missed target prints a line starting with
// MISSED and the run exits 1 (so `pnpm bench` reports it). Timings on a busy machine are noisy:
// read the ratios, rerun before believing one miss.
//
// Settings: BENCH_STARTUP_RUNS (default 11), BENCH_STARTUP_SOURCES (workspace,installed),
// BENCH_INSTALL_DIR=DIR reuses an install made by `node scripts/pack-install.mjs --dir DIR`
// instead of packing and installing anew, BENCH_STARTUP_SERVERS (e.g. catdoc,mochi).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const require = createRequire(import.meta.url);
const REPO = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 11);
const WARMUP = 2;
const INIT_TARGET = 0.8;
const HELP_TARGET = 2;
const SOURCES = (process.env.BENCH_STARTUP_SOURCES ?? "workspace,installed").split(",").map((s) => s.trim());
const APPS = [
  { app: "catdoc-server", cli: "catdoc", mcp: "catdoc-mcp" },
  { app: "local-model-server", cli: "local-model", mcp: "local-model-mcp" },
  { app: "mochi-server", cli: "mochi", mcp: "mochi-mcp" },
  { app: "solo-assets-server", cli: "solo-assets", mcp: "solo-assets-mcp" },
].filter((a) => !process.env.BENCH_STARTUP_SERVERS || process.env.BENCH_STARTUP_SERVERS.split(",").some((s) => a.app.startsWith(s.trim())));

const scratch = mkdtempSync(join(tmpdir(), "bench-startup-"));
const cwd = join(scratch, "project");
const home = join(scratch, "home");
mkdirSync(cwd);
mkdirSync(home);
const env = { PATH: process.env.PATH ?? "", HOME: home, MEMORY_FILE_PATH: join(scratch, "memory.jsonl") };
const MEMORY = require.resolve("@modelcontextprotocol/server-memory/dist/index.js");

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pad = (s, n) => String(s).padEnd(n);
const missed = [];
const cleanup = [scratch];

/** Milliseconds from spawning `node file` to its initialize answer, through the SDK client. */
async function timeInitialize(file) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [file], cwd, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  const client = new Client({ name: "bench-startup", version: "0" });
  const start = process.hrtime.bigint();
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`node ${file} did not answer initialize: ${error.message}\n${stderr}`);
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  await client.close();
  return ms;
}

/** Milliseconds from spawning `node ...args` to its exit. */
function timeExit(args) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, env, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`node ${args.join(" ")} exited ${code}`)),
    );
  });
}

/** Alternating rounds of `a` and `b` (who goes first flips each round); the medians after warm-up. */
async function paired(a, b) {
  const times = { a: [], b: [] };
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const key of i % 2 ? ["a", "b"] : ["b", "a"]) {
      const ms = await (key === "a" ? a() : b());
      if (i >= WARMUP) times[key].push(ms);
    }
  }
  return { a: median(times.a), b: median(times.b) };
}

/** The bins of every app in one source: { app, mcp: file, cli: file }. */
async function binsOf(source) {
  if (source === "workspace") {
    return APPS.map((a) => ({
      ...a,
      files: { [a.mcp]: join(REPO, "apps", a.app, "dist/mcp.js"), [a.cli]: join(REPO, "apps", a.app, "dist/cli.js") },
    }));
  }
  const { describeInstall, packInstall } = await import("../scripts/pack-install.mjs");
  let install;
  if (process.env.BENCH_INSTALL_DIR) {
    install = describeInstall(process.env.BENCH_INSTALL_DIR);
  } else {
    console.log("packing and installing every publishable package (scripts/pack-install.mjs)…");
    install = packInstall({ dir: join(scratch, "install") });
    if (install.tarballDir) cleanup.push(install.tarballDir);
  }
  return APPS.map((a) => {
    const pkg = install.packages.find((p) => p.name === `@local-mcp/${a.app}`);
    if (!pkg) throw new Error(`@local-mcp/${a.app} is not in the install at ${install.dir}`);
    return { ...a, files: { [a.mcp]: pkg.bins[a.mcp], [a.cli]: pkg.bins[a.cli] } };
  });
}

try {
  console.log(
    `start-up: time to the initialize answer vs @modelcontextprotocol/server-memory (median of ${RUNS}, alternating, same SDK client, empty cwd)`,
  );
  console.log(`and --help vs node -e 0 (median of ${RUNS}, alternating); node ${process.version}\n`);
  for (const source of SOURCES) {
    const apps = await binsOf(source);
    for (const a of apps) {
      for (const [bin, file] of Object.entries(a.files)) {
        if (!file || !existsSync(file)) throw new Error(`${source}: ${bin} not found at ${file} (run pnpm build)`);
      }
    }
    console.log(`## ${source}`);
    console.log(`${pad("server", 18)}${pad("initialize", 12)}${pad("server-memory", 15)}${pad("ratio", 8)}target`);
    for (const a of apps) {
      const { a: ours, b: reference } = await paired(
        () => timeInitialize(a.files[a.mcp]),
        () => timeInitialize(MEMORY),
      );
      const ratio = ours / reference;
      const ok = ratio <= INIT_TARGET;
      console.log(
        `${pad(a.mcp, 18)}${pad(`${ours.toFixed(1)} ms`, 12)}${pad(`${reference.toFixed(1)} ms`, 15)}${pad(`${ratio.toFixed(2)}×`, 8)}≤ ${INIT_TARGET}× ${ok ? "ok" : "MISSED"}`,
      );
      if (!ok) missed.push(`${source} ${a.mcp} initialize ${ratio.toFixed(2)}× server-memory (target ≤ ${INIT_TARGET}×)`);
    }
    console.log("");
    console.log(`${pad("bin --help", 18)}${pad("time", 12)}${pad("node -e 0", 15)}${pad("ratio", 8)}target`);
    for (const a of apps) {
      for (const [bin, file] of Object.entries(a.files)) {
        const { a: help, b: bare } = await paired(
          () => timeExit([file, "--help"]),
          () => timeExit(["-e", "0"]),
        );
        const ratio = help / bare;
        const ok = ratio <= HELP_TARGET;
        console.log(
          `${pad(bin, 18)}${pad(`${help.toFixed(1)} ms`, 12)}${pad(`${bare.toFixed(1)} ms`, 15)}${pad(`${ratio.toFixed(2)}×`, 8)}≤ ${HELP_TARGET}× ${ok ? "ok" : "MISSED"}`,
        );
        if (!ok) missed.push(`${source} ${bin} --help ${ratio.toFixed(2)}× node -e 0 (target ≤ ${HELP_TARGET}×)`);
      }
    }
    console.log("");
  }
  if (missed.length > 0) {
    for (const line of missed) console.log(`MISSED: ${line}`);
    process.exitCode = 1;
  } else {
    console.log("every start-up target met");
  }
} finally {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
}
