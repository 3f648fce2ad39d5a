/**
 * SOLO_TYPER: `auto` takes mypy when installed — the `mypy` command, else `python -m mypy` —
 * and otherwise pyright from npm.
 */
import { ToolError } from "@local-mcp/core";
import { findOnPath, pastShim, probeTool, pythonPaths } from "../../process/find-executable.js";
import { MypyTyper } from "./mypy-typer.js";
import { PyrightTyper } from "./pyright-typer.js";
import type { Typer } from "./typer.js";

export async function selectTyper(
  choice: "auto" | "mypy" | "pyright",
  options: { python: string; cacheDir: string; env: Readonly<Record<string, string>> },
): Promise<Typer> {
  if (choice !== "pyright") {
    const found = findOnPath("mypy", options.env.PATH);
    const path = found ? await pastShim(found, options.python, options.env) : undefined;
    const mypy =
      (path ? await probeTool(path, [], ["--version"], options.env) : undefined) ??
      (await probeTool(
        (await pythonPaths(options.python, options.env))?.executable ?? options.python,
        ["-m", "mypy"],
        ["--version"],
        options.env,
      ));
    if (mypy) return new MypyTyper(mypy, options.cacheDir, options.env);
    if (choice === "mypy") {
      throw new ToolError("NOT_READY", "SOLO_TYPER=mypy but mypy is not installed.", {
        suggestion: "Install it (pip install mypy) or set SOLO_TYPER=auto to use pyright.",
      });
    }
  }
  return new PyrightTyper(options.env);
}
