// Test helpers: @local-mcp/core/testing. Not loaded by servers.
export { connectInProcess } from "./in-process-client.js";
export type { InProcessConnection } from "./in-process-client.js";
export { spawnStdioServer } from "./spawn-stdio.js";
export type { SpawnStdioOptions, SpawnedStdioServer } from "./spawn-stdio.js";
export { assertLevelsNested } from "./levels.js";
export { runInspectorCli } from "./inspector-cli.js";
export type { InspectorCliOptions } from "./inspector-cli.js";
