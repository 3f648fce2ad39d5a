/**
 * The solo-assets MCP server: six tools over the function library. `createSoloAssetsServer`
 * takes the process's services (the HTTP runner makes one server per session; they share them).
 */
import { createServer } from "@local-mcp/core";
import type { CreatedServer } from "@local-mcp/core";
import { APP_NAME, APP_VERSION } from "./app-info.js";
import type { SoloServices } from "./services.js";
import { createSoloTools } from "./tools/index.js";

export const SERVER_NAME = `${APP_NAME}-mcp`;

export const SERVER_INSTRUCTIONS = [
  "A personal library of verified Python functions.",
  "Before writing a helper function, call search_functions with what it should do; if an active match exists, fetch it with get_function and reuse it instead of rewriting it.",
  "When you have written a reusable function and its tests pass, store it with save_function (with test_cases); saving is for keeping verified assets, not for running code.",
  "If the quality gate rejects a save, the answer says which step failed and why: fix the code and save again.",
].join(" ");

export interface SoloServerOptions {
  /** Dispose the services when this server closes (stdio and tests; not per HTTP session). */
  disposeServicesOnClose?: boolean;
}

export function createSoloAssetsServer(services: SoloServices, options: SoloServerOptions = {}): CreatedServer {
  return createServer({
    name: SERVER_NAME,
    version: APP_VERSION,
    title: "Solo assets",
    instructions: SERVER_INSTRUCTIONS,
    tools: createSoloTools(services),
    responseLevel: services.config.responseLevel,
    logger: services.logger,
    onClose: options.disposeServicesOnClose ? () => services.dispose() : undefined,
  });
}
