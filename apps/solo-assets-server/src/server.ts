/**
 * The solo-assets MCP server: six tools over the function library, and its functions as
 * resources (`solo://functions/{name}`). `createSoloAssetsServer` takes the configuration and,
 * optionally, the process's server services (the HTTP runner makes one server per session; they
 * share them, see server-main.ts): the light context up front, the library on the first call that
 * needs it. Without them, the server opens its own from the configuration and disposes them on close.
 */
import { createServer } from "@local-mcp/core";
import type { CreatedServer, Logger } from "@local-mcp/core";
import { APP_INFO } from "./app-info.js";
import type { SoloAssetsConfig } from "./config.js";
import { openSoloContext } from "./context.js";
import type { SoloContext } from "./context.js";
import type { EffectiveSettings } from "./domain/settings/effective-settings.js";
import type { SoloServices } from "./services.js";
import { functionResource } from "./resources/function-resource.js";
import { soloAssetsTools } from "./tools/index.js";

export const SERVER_INSTRUCTIONS = [
  "A personal library of verified Python functions.",
  "Before writing a helper function, call search_functions with what it should do; if an active match exists, fetch it with get_function and reuse it instead of rewriting it.",
  "When you have written a reusable function and its tests pass, store it with save_function (with test_cases); saving is for keeping verified assets, not for running code.",
  "If the quality gate rejects a save, the answer says which step failed and why: fix the code and save again.",
].join(" ");

/** What the tools need: the configuration and settings when they are listed, the services when called. */
export interface SoloServerServices {
  config: SoloAssetsConfig;
  settings: EffectiveSettings;
  logger: Logger;
  /** The library and the gate; built by the first call (loading their code, not yet DuckDB). */
  services(): Promise<SoloServices>;
  /** Disposes the services if they were built. */
  dispose(): Promise<void>;
}

/** Server services over services already built (the tests, the in-process server). */
export function serverServicesOf(services: SoloServices): SoloServerServices {
  return {
    config: services.config,
    settings: services.settings,
    logger: services.logger,
    services: async () => services,
    dispose: () => services.dispose(),
  };
}

/** Server services that build the library from the context on the first call (server-main.ts; a server given none). */
export function lazyServerServices(context: SoloContext): SoloServerServices {
  let built: Promise<SoloServices> | undefined;
  const services = () => {
    built ??= import("./services.js")
      .then(({ servicesFor }) => servicesFor(context))
      .catch((error: unknown) => {
        built = undefined;
        throw error;
      });
    return built;
  };
  return {
    config: context.config,
    settings: context.settings,
    logger: context.logger,
    services,
    dispose: async () => {
      const opened = built;
      if (opened) await (await opened).dispose();
    },
  };
}

export interface SoloAssetsServerOptions {
  /**
   * The process's server services, shared by its servers (one per HTTP session). They must be
   * built from the same configuration object the server is given (a mismatch throws). Absent: the
   * server opens its own from the configuration, loads the library lazily and owns them.
   */
  services?: SoloServerServices | undefined;
  /**
   * Dispose the given services when this server closes (stdio and tests; not per HTTP session).
   * A server always disposes the services it opened itself.
   */
  disposeServicesOnClose?: boolean | undefined;
}

export function createSoloAssetsServer(config: SoloAssetsConfig, options: SoloAssetsServerOptions = {}): CreatedServer {
  if (options.services && options.services.config !== config) {
    throw new Error("createSoloAssetsServer: options.services were built from another configuration than the one given");
  }
  const host = options.services ?? lazyServerServices(openSoloContext(config));
  const dispose = options.services === undefined || options.disposeServicesOnClose === true;
  return createServer({
    name: APP_INFO.name,
    version: APP_INFO.version,
    title: APP_INFO.title,
    instructions: SERVER_INSTRUCTIONS,
    tools: soloAssetsTools(host),
    resourceTemplates: [functionResource(host)],
    responseLevel: config.responseLevel,
    resourcePollMs: config.resourcePollMs,
    logger: host.logger,
    onClose: dispose ? () => host.dispose() : undefined,
  });
}
