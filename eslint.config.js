// ESLint flat config: typescript-eslint on every package; `no-console` in server code, because
// stdout of a stdio MCP server carries JSON-RPC only (log through core's stderr logger).
import js from "@eslint/js";
import checkFile from "eslint-plugin-check-file";
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
    // File names are kebab-case (a tool `catdoc_get_graph` lives in tools/catdoc-get-graph.ts). Example
    // projects and test fixtures are data shaped like other people's code, so they keep their names.
    files: ["**/*.{ts,mts,cts,js,mjs,cjs}"],
    ignores: ["examples/**", "**/fixtures/**"],
    plugins: { "check-file": checkFile },
    rules: {
      "check-file/filename-naming-convention": [
        "error",
        { "**/*.{ts,mts,cts,js,mjs,cjs}": "KEBAB_CASE" },
        { ignoreMiddleExtensions: true },
      ],
    },
  },
  {
    // Server code: nothing may write to stdout by accident.
    files: ["packages/*/src/**/*.ts", "apps/*/src/**/*.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Configuration is read in one place per package: the environment reaches code as a parsed
    // config object, so a module's behaviour is set by its arguments, and tests pass their own env.
    files: ["packages/*/src/**/*.ts", "apps/*/src/**/*.ts"],
    ignores: [
      "apps/*/src/{cli,mcp,config}.ts",
      "apps/*/src/cli/**",
      "packages/core/src/config.ts",
      "packages/core/src/server/run-main.ts",
      "packages/core/src/sample/mcp.ts",
      "packages/core/src/testing/**",
    ],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read the environment in the package's config or entry module (config.ts, cli.ts, mcp.ts) and pass the parsed value in.",
        },
      ],
    },
  },
  {
    // llama.cpp is reached only through core's inference layer (model loading, GPU choice, limits).
    files: ["packages/*/src/**/*.ts", "apps/*/src/**/*.ts", "bench/**", "scripts/**"],
    ignores: ["packages/core/src/inference/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "node-llama-cpp", message: "Use @local-mcp/core/inference." }],
          patterns: [{ group: ["node-llama-cpp/*"], message: "Use @local-mcp/core/inference." }],
        },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "ImportExpression[source.value=/^node-llama-cpp/]", message: "Use @local-mcp/core/inference." },
      ],
    },
  },
  {
    // Scripts, benchmarks and tests print their results.
    files: ["scripts/**", "bench/**", "**/test/**", ".ci/**"],
    rules: { "no-console": "off" },
  },
);
