/**
 * createSoloAssetsServer(config, options): without shared services the server opens its own from
 * the configuration (the library on the first call that needs it) and closes them with itself;
 * shared services built from another configuration are refused.
 */
import { connectInProcess } from "@local-mcp/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { loadSoloAssetsConfig } from "../src/config.js";
import { createSoloAssetsServer, serverServicesOf } from "../src/server.js";
import { tempLibrary, testEnv, testServices } from "./helpers/test-library.js";

const library = tempLibrary();
afterAll(() => library.remove());

describe("createSoloAssetsServer", () => {
  it("opens its own services from the configuration when none are given, and answers through them", async () => {
    const config = loadSoloAssetsConfig(testEnv(library.dbPath), process.cwd());
    const connection = await connectInProcess(createSoloAssetsServer(config));
    try {
      const { tools } = await connection.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        "search_functions",
        "get_function",
        "save_function",
        "list_functions",
        "get_function_history",
        "delete_function",
        "export_function",
      ]);
      const listed = await connection.client.callTool({ name: "list_functions", arguments: {} });
      expect(listed.isError).not.toBe(true);
    } finally {
      await connection.close();
    }
  });

  it("refuses shared services built from another configuration", async () => {
    const services = testServices(library.dbPath);
    try {
      const other = loadSoloAssetsConfig(testEnv(library.dbPath), process.cwd());
      expect(() => createSoloAssetsServer(other, { services: serverServicesOf(services) })).toThrow(/another configuration/);
    } finally {
      await services.dispose();
    }
  });
});
