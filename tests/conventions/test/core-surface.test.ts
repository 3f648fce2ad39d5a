/**
 * Core's public surface: what each entry point of @local-mcp/core exports (read with the
 * TypeScript compiler), listed here in full so a change to it shows in review, and each name used
 * outside core's own sources — by an app, a test package, a benchmark, a script, or core's tests.
 * A name nothing uses leaves the surface (its module can still use it). A few types are kept
 * though nothing names them: they type fields of a server or tool definition.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const CORE = join(ROOT, "packages/core");

/** Entry point (package.json "exports") → its source. */
const ENTRIES: Record<string, string> = {
  ".": "src/index.ts",
  "./main": "src/main.ts",
  "./files": "src/files/index.ts",
  "./config": "src/config-entry.ts",
  "./inference": "src/inference/index.ts",
  "./gguf": "src/inference/gguf/index.ts",
  "./embeddings": "src/embeddings/index.ts",
  "./testing": "src/testing/index.ts",
  "./code-analysis": "src/code-analysis/index.ts",
  "./python-env": "src/python-env/index.ts",
};

/** Kept without a user: the vocabulary of definitions (fields' types) and of levels. */
const VOCABULARY = new Set([
  "RESPONSE_LEVELS",
  "ResponseLevelSchema",
  "ResourceBody",
  "ResourceOversize",
  "ToolAnnotations",
  "ToolErrorBody",
]);

const SURFACE: Record<string, string[]> = {
  ".": [
    "ADDITIVE",
    "AnyToolDefinition",
    "CheckedStdioTransport",
    "CommonConfig",
    "ConfigError",
    "ConfinedFile",
    "ConfinementError",
    "CreatedServer",
    "DASHBOARD_CSP",
    "DEFAULT_MAX_RESPONSE_TOKENS",
    "DEFAULT_PAGE_ITEMS",
    "DESTRUCTIVE",
    "DESTRUCTIVE_IDEMPOTENT",
    "ERROR_STATUS",
    "Env",
    "EnvVarDoc",
    "ErrorCode",
    "HttpError",
    "HttpHandle",
    "LOG_LEVELS",
    "LevelParts",
    "LeveledResponse",
    "LockHolder",
    "LockTimeoutError",
    "LogLevel",
    "Logger",
    "MAX_PATH_BYTES",
    "MAX_WATCHED_RESOURCES",
    "MemoryGuard",
    "PathErrorContext",
    "READ_ONLY",
    "RESOURCE_NOT_FOUND",
    "RESOURCE_PART_META",
    "RESOURCE_VERSION_META",
    "RESPONSE_LEVELS",
    "ReadJsonOptions",
    "Readiness",
    "ResourceBody",
    "ResourceDefinition",
    "ResourceListing",
    "ResourceOversize",
    "ResourceTemplateDefinition",
    "ResourceWatch",
    "ResponseLevel",
    "ResponseLevelSchema",
    "ServerDefinition",
    "ServerFactory",
    "ToolAnnotations",
    "ToolContext",
    "ToolDefinition",
    "ToolError",
    "ToolErrorBody",
    "ToolErrorBodySchema",
    "ToolResponse",
    "abortableDelay",
    "acquireDirectoryLock",
    "atLevel",
    "atomicWriteTempPath",
    "checkJsonRpcMessage",
    "checkLoopbackRequest",
    "checkPathShape",
    "confinePath",
    "contentHash",
    "createLogger",
    "createServer",
    "defineResource",
    "defineResourceTemplate",
    "defineTool",
    "eachAtLevel",
    "errnoCode",
    "estimateJsonTokens",
    "isInsideAny",
    "isMissingPathError",
    "isNestedSubset",
    "isPathInside",
    "isProcessAlive",
    "isToolError",
    "jsonTokensAtMost",
    "lazySchema",
    "levelIncludes",
    "nestingDepth",
    "openConfined",
    "openWorld",
    "parseCommonConfig",
    "parseEnvConfig",
    "parseHttpConfig",
    "parsePartUri",
    "partUri",
    "pathErrorFrom",
    "pathForbidden",
    "preloadResponseTokenizer",
    "quotePath",
    "readJsonObject",
    "realPathOfNearest",
    "resolveResponseLevel",
    "responseTooLarge",
    "runServerMain",
    "runStdio",
    "seedFrom",
    "seededRandom",
    "sendAsset",
    "sendJson",
    "silentLogger",
    "stableStringify",
    "syncDirectorySync",
    "toToolError",
    "tokensAboveBudget",
    "withDeadline",
    "withDirectoryLock",
    "writeFileAtomic",
    "writeFileAtomicSync",
    "writeFileConfined",
  ],
  "./main": ["AppInfo", "EnvVarDoc", "runServerMain"],
  "./files": [
    "ConfinementError",
    "LockTimeoutError",
    "PathErrorContext",
    "atomicWriteTempPath",
    "confinePath",
    "errnoCode",
    "isProcessAlive",
    "openConfined",
    "pathErrorFrom",
    "quotePath",
    "syncDirectorySync",
    "withDirectoryLock",
    "writeFileAtomic",
  ],
  "./config": ["CommonConfig", "Env", "parseCommonConfig", "parseEnvConfig"],
  "./inference": [
    "ChatMessage",
    "ConvertPeftOptions",
    "ConvertPeftResult",
    "GenerateRequest",
    "GenerationResult",
    "GgmlType",
    "GgufCorruptError",
    "GgufHeader",
    "GgufMetadataValue",
    "GgufProblem",
    "GgufTensorInfo",
    "GgufTruncatedError",
    "GgufValueType",
    "InferenceBackend",
    "JsonRequest",
    "JsonResult",
    "JsonSchema",
    "LORA_ALPHA_KEY",
    "LlamaEmbedder",
    "LlamaEngine",
    "LlamaEngineConfig",
    "LlamaTokenizer",
    "PEFT_ARCHITECTURES",
    "PeftArchitecture",
    "PeftConversionError",
    "PeftLoraConfig",
    "PeftLoraConfigSchema",
    "PeftRefusalReason",
    "PeftTensorName",
    "PromptInput",
    "RemoteBackend",
    "SafetensorsDtype",
    "SafetensorsFile",
    "SafetensorsFormatError",
    "SafetensorsTensorInfo",
    "SafetensorsTensorToWrite",
    "TokenSample",
    "alpacaPrompt",
    "checkJson",
    "checkTensorLayout",
    "convertPeftToGguf",
    "estimateModelMemory",
    "float16BitsToFloat32",
    "float32ToBfloat16Bits",
    "float32ToFloat16Bits",
    "ggmlTensorBytes",
    "ggufTensorForModule",
    "ggufValue",
    "longestTokenText",
    "metadataNumber",
    "metadataString",
    "modelHyperparameters",
    "moduleAlpha",
    "openLlamaTokenizer",
    "parsePeftTensorName",
    "permuteRopeRows",
    "promptTextUnits",
    "readGgufHeader",
    "readLoadableLoraHeader",
    "readLoadableModelHeader",
    "readPeftConfig",
    "roundToBfloat16",
    "roundToFloat16",
    "throwIfProblems",
    "validateLoraAdapter",
    "validateModelHeader",
    "writeGgufFile",
    "writeSafetensorsFile",
  ],
  "./gguf": [
    "GgmlType",
    "GgufCorruptError",
    "GgufHeader",
    "GgufMetadataValue",
    "GgufProblem",
    "GgufTensorInfo",
    "GgufTruncatedError",
    "GgufValueType",
    "LORA_ALPHA_KEY",
    "checkTensorLayout",
    "estimateModelMemory",
    "float16BitsToFloat32",
    "float32ToBfloat16Bits",
    "float32ToFloat16Bits",
    "ggmlTensorBytes",
    "ggufValue",
    "metadataNumber",
    "metadataString",
    "modelHyperparameters",
    "readGgufHeader",
    "readLoadableLoraHeader",
    "readLoadableModelHeader",
    "roundToBfloat16",
    "roundToFloat16",
    "throwIfProblems",
    "validateLoraAdapter",
    "validateModelHeader",
    "writeGgufFile",
  ],
  "./embeddings": [
    "Embedder",
    "GEMINI_DEFAULT_DIMENSION",
    "GEMINI_DEFAULT_MODEL",
    "GeminiEmbedder",
    "GeminiEmbedderOptions",
    "LOCAL_EMBEDDER_DEFAULT_DIMENSION",
    "LOCAL_EMBEDDER_MAX_TEXT_CHARS",
    "LOCAL_EMBEDDER_VERSION",
    "LocalEmbedder",
    "assertSameEmbeddingSpace",
    "backoffDelayMs",
    "cosine",
    "createEmbedder",
    "dot",
    "geminiApiKeyFromEnv",
    "isUnitVector",
    "l2Norm",
    "l2Normalise",
    "sameEmbeddingSpace",
    "toStoredVector",
    "topK",
  ],
  "./python-env": ["ensurePythonEnv"],
  "./code-analysis": [
    "AnalyzeSourceInput",
    "CodeLanguage",
    "FunctionFacts",
    "MAX_SOURCE_CHARS",
    "SourceAnalysis",
    "TypeFacts",
    "analyzeSource",
    "languageOf",
    "loadedGrammars",
    "resolveLanguage",
    "supportedLanguages",
  ],
  "./testing": [
    "BinRun",
    "FakeGemini",
    "FakeOpenAi",
    "InProcessConnection",
    "LOAD_LOG_ENV",
    "LOAD_OBSERVER_URL",
    "MODERN_PROTOCOL_VERSION",
    "MinimalShare",
    "SpawnStdioOptions",
    "SpawnedStdioServer",
    "TINY_MODEL",
    "TinyArchitecture",
    "TinyLlamaOptions",
    "TinyLoraDefect",
    "TinyModelInfo",
    "TinyPeftOptions",
    "ToolCase",
    "assertLevelsNested",
    "assertMinimalShare",
    "callEveryTool",
    "connectInProcess",
    "cpuSeconds",
    "fakeEmbeddingValues",
    "jsonTokens",
    "loadedModules",
    "loadedPackages",
    "readEveryResource",
    "readLoadLog",
    "runInspectorCli",
    "runObserved",
    "seededRandom",
    "spawnHttpServer",
    "spawnStdioServer",
    "startFakeGemini",
    "stderrLine",
    "withServerInEra",
    "writeTinyHfModel",
    "writeTinyLlamaGguf",
    "writeTinyLoraGguf",
    "writeTinyPeftAdapter",
  ],
};

function exportsOf(): Record<string, string[]> {
  const files = Object.values(ENTRIES).map((f) => join(CORE, f));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(join(CORE, file));
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`cannot read ${file}`);
    out[entry] = checker
      .getExportsOfModule(symbol)
      .map((s) => s.name)
      .sort();
  }
  return out;
}

/** Every file outside core's sources that imports core (by package name, or core's tests by path). */
function userTexts(): string[] {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "apps", "tests", "bench", "scripts", "packages/core/test"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && !f.includes("/dist/") && !f.includes("node_modules/"));
  return files
    .map((f) => readFileSync(join(ROOT, f), "utf8"))
    .filter((text) => text.includes("@local-mcp/core") || /\/src\/[\w/-]*index\.js/.test(text) || text.includes("packages/core/dist"));
}

describe("core's public surface", () => {
  const actual = exportsOf();

  it("is exactly the listed names, entry point by entry point", () => {
    expect(Object.keys(JSON.parse(readFileSync(join(CORE, "package.json"), "utf8")).exports).sort()).toEqual(Object.keys(ENTRIES).sort());
    expect(actual).toEqual(SURFACE);
  });

  it("holds only names something outside core's sources uses", () => {
    const texts = userTexts();
    const unused = Object.entries(actual).flatMap(([entry, names]) =>
      names
        .filter((name) => !VOCABULARY.has(name) && !texts.some((text) => new RegExp(`\\b${name}\\b`).test(text)))
        .map((name) => `${entry}: ${name}`),
    );
    expect(unused).toEqual([]);
  });
});
