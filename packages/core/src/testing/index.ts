// Test helpers: @local-mcp/core/testing. Not loaded by servers.
export { connectInProcess } from "./in-process-client.js";
export type { InProcessConnection } from "./in-process-client.js";
export { spawnStdioServer } from "./spawn-stdio.js";
export type { SpawnStdioOptions, SpawnedStdioServer } from "./spawn-stdio.js";
export { assertLevelsNested } from "./levels.js";
