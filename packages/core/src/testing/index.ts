// Test helpers: @local-mcp/core/testing. Not loaded by servers.
export { connectInProcess } from "./in-process-client.js";
export type { InProcessConnection } from "./in-process-client.js";
export { spawnStdioServer } from "./spawn-stdio.js";
export type { SpawnStdioOptions, SpawnedStdioServer } from "./spawn-stdio.js";
export { spawnHttpServer } from "./spawn-http.js";
export type { SpawnHttpOptions, SpawnedHttpServer } from "./spawn-http.js";
export { spawnUntilReady } from "./spawn-ready.js";
export type { ExitStatus, ReadyProcess, SpawnReadyOptions } from "./spawn-ready.js";
export { createEraClient, MODERN_PROTOCOL_VERSION } from "./era-client.js";
export { withServerInEra } from "./in-era.js";
export { cpuSeconds, stderrLine } from "./process-probes.js";
export type { InEraOptions } from "./in-era.js";
export { callEveryTool, readEveryResource } from "./every-tool.js";
export type { ToolCase, ToolOutcome } from "./every-tool.js";
export { MINIMAL_FLOOR_TOKENS, MINIMAL_SHARE, assertLevelsNested, assertMinimalShare, jsonTokens } from "./levels.js";
export type { MinimalShare } from "./levels.js";
export { runInspectorCli } from "./inspector-cli.js";
export type { InspectorCliOptions } from "./inspector-cli.js";
export {
  CHATML_TEMPLATE,
  TINY_MODEL,
  seededRandom,
  tinyBlockShapes,
  tinyVocabulary,
  uniformValues,
  writeTinyLlamaGguf,
  writeTinyLoraGguf,
} from "./tiny-gguf.js";
export type {
  TinyArchitecture,
  TinyLlamaOptions,
  TinyLoraDefect,
  TinyLoraInfo,
  TinyLoraOptions,
  TinyModelInfo,
  TinyVocabulary,
  TinyWeight,
  TinyWeightDelta,
} from "./tiny-gguf.js";
export { writeTinyPeftAdapter } from "./tiny-peft.js";
export type { PeftTargetModule, TinyPeftInfo, TinyPeftOptions } from "./tiny-peft.js";
export { fakeEmbeddingValues, startFakeGemini } from "./fake-gemini.js";
export type { FakeGemini, FakeGeminiRequest, ScriptedFailure } from "./fake-gemini.js";
export { FakeOpenAi } from "./fake-openai.js";
export type { FakeOpenAiRequest } from "./fake-openai.js";
export { LOAD_LOG_ENV, LOAD_OBSERVER_URL, loadedPackages, readLoadLog } from "./load-log.js";
export { loadedModules, runObserved } from "./bin-loads.js";
export type { BinRun, LoadedModules } from "./bin-loads.js";
