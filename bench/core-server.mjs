// Benchmark (issue #2): a core-based stdio server vs the official @modelcontextprotocol/server-memory,
// started the same way, in the same run: cold start to the `initialize` response, and the round
// trip of a trivial tool call (p50/p99). Targets: cold start ≤ 1.0× the reference, call p50 ≤ 1.2×.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const require = createRequire(import.meta.url);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 20);
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const WARMUP = 100;

const scratch = mkdtempSync(join(tmpdir(), "bench-core-"));
const servers = {
  ours: {
    label: "local-mcp sample (core)",
    args: [fileURLToPath(new URL("../packages/core/dist/sample/mcp.js", import.meta.url))],
    env: { LOCAL_MCP_LOG_LEVEL: "warn" },
    call: { name: "echo", arguments: { text: "ping" } },
  },
  reference: {
    label: "@modelcontextprotocol/server-memory",
    args: [require.resolve("@modelcontextprotocol/server-memory/dist/index.js")],
    env: { MEMORY_FILE_PATH: join(scratch, "memory.jsonl") },
    // its lightest tool: open_nodes of no names (it still reads its JSONL file on each call)
    call: { name: "open_nodes", arguments: { names: [] } },
  },
};

async function connect(server) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: server.args,
    env: { PATH: process.env.PATH ?? "", ...server.env },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0" });
  const start = process.hrtime.bigint();
  await client.connect(transport);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { client, ms };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (xs) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
const fmt = (ms) => `${ms.toFixed(2)} ms`;

// Cold start, interleaved so both see the same machine state.
const cold = { ours: [], reference: [] };
for (let i = 0; i < COLD_RUNS + 2; i++) {
  for (const key of i % 2 ? ["ours", "reference"] : ["reference", "ours"]) {
    const { client, ms } = await connect(servers[key]);
    if (i >= 2) cold[key].push(ms); // the first two rounds warm the OS file cache
    await client.close();
  }
}

// Round trips on one warm connection each, interleaved in blocks.
const calls = { ours: [], reference: [] };
const conns = { ours: (await connect(servers.ours)).client, reference: (await connect(servers.reference)).client };
for (const key of ["ours", "reference"]) {
  for (let i = 0; i < WARMUP; i++) await conns[key].callTool(servers[key].call);
}
for (let block = 0; block < 10; block++) {
  for (const key of block % 2 ? ["ours", "reference"] : ["reference", "ours"]) {
    for (let i = 0; i < CALLS / 10; i++) {
      const start = process.hrtime.bigint();
      const result = await conns[key].callTool(servers[key].call);
      calls[key].push(Number(process.hrtime.bigint() - start) / 1e6);
      if (result.isError) throw new Error(`${key} call failed: ${JSON.stringify(result)}`);
    }
  }
}
await conns.ours.close();
await conns.reference.close();
rmSync(scratch, { recursive: true, force: true });

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p99: quantile(s, 0.99) };
};
const coldOurs = median(cold.ours);
const coldRef = median(cold.reference);
const callOurs = stats(calls.ours);
const callRef = stats(calls.reference);
console.log(`core server vs ${servers.reference.label} (${COLD_RUNS} cold starts each, ${CALLS} calls each, Node ${process.version})`);
console.log(`  cold start to initialize (median): ours ${fmt(coldOurs)}, reference ${fmt(coldRef)}`);
console.log(
  `  trivial call round trip: ours p50 ${fmt(callOurs.p50)} p99 ${fmt(callOurs.p99)}; reference p50 ${fmt(callRef.p50)} p99 ${fmt(callRef.p99)}`,
);
const coldRatio = coldOurs / coldRef;
const callRatio = callOurs.p50 / callRef.p50;
console.log(`  cold start ratio: ${coldRatio.toFixed(2)}× (target ≤ 1.00×) ${coldRatio <= 1 ? "MET" : "MISSED"}`);
console.log(`  call p50 ratio:   ${callRatio.toFixed(2)}× (target ≤ 1.20×) ${callRatio <= 1.2 ? "MET" : "MISSED"}`);
console.log(`  call p99 ratio:   ${(callOurs.p99 / callRef.p99).toFixed(2)}×`);
