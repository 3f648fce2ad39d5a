import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

// global-setup.ts packs and installs every publishable package once per run (minutes on a busy
// machine: npm copies node-llama-cpp's prebuilt binaries); the tests spawn the installed bins.
export default defineConfig({
  test: { ...sharedTestConfig, globalSetup: ["./global-setup.ts"], testTimeout: 120_000, hookTimeout: 180_000 },
});
