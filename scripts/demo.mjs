// `pnpm demo`: starts every server that exists over stdio through the real MCP SDK client, lists
// its tools and calls one; servers not built yet are reported as such. Later issues extend this
// with each server's main flow on examples/.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { spawnStdioServer } from "@local-mcp/core/testing";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const servers = [
  { name: "local-mcp-sample (core)", bin: here("../packages/core/dist/sample/mcp.js"), call: { name: "echo", arguments: { text: "hello from the demo", response_level: "standard" } } },
  { name: "mochi-mcp", bin: here("../apps/mochi-server/dist/mcp.js") },
  { name: "solo-assets-mcp", bin: here("../apps/solo-assets-server/dist/mcp.js") },
  { name: "catdoc-mcp", bin: here("../apps/catdoc-server/dist/mcp.js") },
  { name: "local-model-mcp", bin: here("../apps/local-model-server/dist/mcp.js") },
];

/** Asks a bin whether it is built: an unbuilt bin's --help says so (and running it exits 69). */
function probe(bin) {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [bin, "--help"], (error, stdout) => resolve({ error, stdout }));
    child.stdin?.end();
  });
}

let failures = 0;
for (const server of servers) {
  console.log(`\n■ ${server.name}`);
  const help = await probe(server.bin);
  const status = /Status: (.*not built yet.*)/.exec(help.stdout)?.[1];
  if (status) {
    console.log(`  ${status}`);
    continue;
  }
  if (!server.call) {
    console.log("  built, but the demo has no flow for it yet");
    continue;
  }
  const started = Date.now();
  const proc = await spawnStdioServer({ command: process.execPath, args: [server.bin], env: { LOCAL_MCP_LOG_LEVEL: "warn" } });
  try {
    const { tools } = await proc.client.listTools();
    console.log(`  connected over stdio in ${Date.now() - started} ms; ${tools.length} tools: ${tools.map((t) => t.name).join(", ")}`);
    const result = await proc.client.callTool(server.call);
    console.log(`  ${server.call.name}(${JSON.stringify(server.call.arguments)})`);
    console.log(`  → ${JSON.stringify(result.structuredContent)}`);
    if (result.isError) failures += 1;
    proc.assertCleanStdout();
    console.log(`  stdout carried only JSON-RPC (${proc.stdoutLines.length} lines)`);
  } catch (error) {
    failures += 1;
    console.error(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await proc.close();
  }
  if (proc.child.exitCode !== 0 && proc.child.exitCode !== null) failures += 1;
}
console.log(failures === 0 ? "\ndemo finished: every built server answered" : `\ndemo finished with ${failures} failure(s)`);
process.exitCode = failures === 0 ? 0 : 1;
