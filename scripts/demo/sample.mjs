// The sample server of core: list its tools, call echo at the standard level.
export async function run({ spawn, log }) {
  const started = Date.now();
  const proc = await spawn({ env: { LOCAL_MCP_LOG_LEVEL: "warn" } });
  try {
    const { tools } = await proc.client.listTools();
    log(`connected over stdio in ${Date.now() - started} ms; ${tools.length} tools: ${tools.map((t) => t.name).join(", ")}`);
    const call = { name: "echo", arguments: { text: "hello from the demo", response_level: "standard" } };
    const result = await proc.client.callTool(call);
    log(`${call.name}(${JSON.stringify(call.arguments)}) → ${JSON.stringify(result.structuredContent)}`);
    if (result.isError) throw new Error("echo failed");
    proc.assertCleanStdout();
    log(`stdout carried only JSON-RPC (${proc.stdoutLines.length} lines)`);
  } finally {
    await proc.close();
  }
}
