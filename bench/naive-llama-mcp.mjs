// The baseline of bench/mochi.mjs's latency figures (issue 18 item 5): the MCP server someone
// would write around node-llama-cpp in an afternoon. One tool, `complete`, that hands the prefix
// and suffix to node-llama-cpp's LlamaCompletion.generateInfillCompletionWithMeta on one context
// sequence, at the library's defaults — except greedy sampling without a repeat penalty and flash
// attention off, so that "the same greedy text" is a fair comparison with complete_code (they are
// mochi's settings) — with the stop strings given
// as its customStopTriggers. Built on the MCP SDK alone (no core), stdio, one line "ready" on
// stderr when the model is loaded.
//   NAIVE_MODEL (GGUF, required), NAIVE_LORA (GGUF LoRA, optional), NAIVE_CONTEXT_SIZE (2048),
//   NAIVE_THREADS (unset: llama.cpp decides).
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

// The copies the workspace has: core depends on node-llama-cpp, the MCP server SDK and zod.
const requireFromCore = createRequire(new URL("../packages/core/package.json", import.meta.url));
const load = (name) => import(pathToFileURL(requireFromCore.resolve(name)).href);
const { McpServer } = await load("@modelcontextprotocol/server");
const { StdioServerTransport } = await load("@modelcontextprotocol/server/stdio");
const { z } = await load("zod");
const nlc = await load("node-llama-cpp");

const modelPath = process.env.NAIVE_MODEL;
if (!modelPath) {
  process.stderr.write("naive-llama-mcp: set NAIVE_MODEL to a GGUF file\n");
  process.exit(2);
}
const llama = await nlc.getLlama({ build: "never", gpu: false, logLevel: nlc.LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath });
const context = await model.createContext({
  contextSize: Number(process.env.NAIVE_CONTEXT_SIZE ?? 2048),
  // Off, as core's LlamaEngine runs it (node-llama-cpp's default "auto" turns it on where llama.cpp
  // supports it, which moves the logits' last bits and so, on near ties, the greedy text).
  flashAttention: false,
  ...(process.env.NAIVE_THREADS ? { threads: Number(process.env.NAIVE_THREADS) } : {}),
  ...(process.env.NAIVE_LORA ? { lora: { adapters: [{ filePath: process.env.NAIVE_LORA }] } } : {}),
});
const completion = new nlc.LlamaCompletion({ contextSequence: context.getSequence() });

const server = new McpServer({ name: "naive-llama-mcp", version: "0.0.0" });
server.registerTool(
  "complete",
  {
    description: "Fills in the middle between prefix and suffix with the local model.",
    inputSchema: z.object({
      prefix: z.string(),
      suffix: z.string().default(""),
      max_tokens: z.number().int().min(1).default(48),
      stop: z.array(z.string()).optional(),
    }),
    outputSchema: z.object({ text: z.string(), tokens: z.number().int(), stop_reason: z.string() }),
  },
  async ({ prefix, suffix, max_tokens, stop }) => {
    let tokens = 0;
    const result = await completion.generateInfillCompletionWithMeta(prefix, suffix, {
      maxTokens: max_tokens,
      temperature: 0,
      repeatPenalty: false,
      onToken: (chunk) => (tokens += chunk.length),
      ...(stop?.length ? { customStopTriggers: stop } : {}),
    });
    const output = { text: result.response, tokens, stop_reason: result.metadata.stopReason };
    return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
  },
);
await server.connect(new StdioServerTransport());
process.stderr.write("naive-llama-mcp: ready\n");
process.stdin.on("close", async () => {
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  process.exit(0);
});
