import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

// test/fixtures holds a sample repository whose own *.test.ts files are data for the indexer, not tests.
export default defineConfig({ test: { ...sharedTestConfig, exclude: ["test/fixtures/**", "**/node_modules/**"] } });
