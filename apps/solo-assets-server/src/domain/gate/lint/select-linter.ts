/** SOLO_LINTER: `auto` takes the ruff binary when it answers `--version`, else the WebAssembly build. */
import { ToolError } from "@local-mcp/core";
import { findOnPath, pastShim, probeTool } from "../../process/find-executable.js";
import { DEFAULT_LINE_LENGTH } from "./linter.js";
import type { Linter } from "./linter.js";
import { RuffBinaryLinter } from "./ruff-binary-linter.js";
import { RuffWasmLinter } from "./ruff-wasm-linter.js";

export async function selectLinter(
  choice: "auto" | "ruff" | "ruff-wasm",
  env: Readonly<Record<string, string>>,
  lineLength: number = DEFAULT_LINE_LENGTH,
  python = "python3",
): Promise<Linter> {
  if (choice !== "ruff-wasm") {
    const found = findOnPath("ruff", env.PATH);
    const path = found ? await pastShim(found, python, env) : undefined;
    const ruff = path ? await probeTool(path, [], ["--version"], env) : undefined;
    if (ruff) return new RuffBinaryLinter(ruff, env, lineLength);
    if (choice === "ruff") {
      throw new ToolError("NOT_READY", "SOLO_LINTER=ruff but the ruff binary is not installed.", {
        suggestion: "Install it (pip install ruff, or uv tool install ruff) or set SOLO_LINTER=auto.",
      });
    }
  }
  return new RuffWasmLinter(lineLength);
}
