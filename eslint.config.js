// ESLint flat config: typescript-eslint on every package; `no-console` in server code, because
// stdout of a stdio MCP server carries JSON-RPC only (log through core's stderr logger).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "**/coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Server code: nothing may write to stdout by accident.
    files: ["packages/*/src/**/*.ts", "apps/*/src/**/*.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Scripts, benchmarks and tests print their results.
    files: ["scripts/**", "bench/**", "**/test/**", ".ci/**"],
    rules: { "no-console": "off" },
  },
);
