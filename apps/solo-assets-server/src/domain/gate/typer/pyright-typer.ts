/**
 * pyright from npm (the `pyright` package bundled with this app), run with this Node. Missing
 * imports are switched off to match mypy's --ignore-missing-imports.
 */
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ToolError } from "@local-mcp/core";
import { runProcess } from "../../process/run-process.js";
import type { TypeFindings, Typer } from "./typer.js";

interface PyrightOutput {
  version?: string;
  generalDiagnostics?: {
    severity: string;
    message: string;
    rule?: string;
    range?: { start: { line: number; character: number } };
  }[];
}

const CONFIG = {
  typeCheckingMode: "standard",
  reportMissingImports: "none",
  reportMissingModuleSource: "none",
};

export class PyrightTyper implements Typer {
  readonly kind = "pyright";
  private readonly entry: string;

  constructor(private readonly env: Readonly<Record<string, string>>) {
    const require = createRequire(import.meta.url);
    this.entry = join(dirname(require.resolve("pyright/package.json")), "index.js");
  }

  async check(dir: string, signal: AbortSignal): Promise<TypeFindings> {
    await writeFile(join(dir, "pyrightconfig.json"), JSON.stringify(CONFIG));
    const result = await runProcess(process.execPath, [this.entry, "--outputjson", "function.py"], {
      cwd: dir,
      env: this.env,
      timeoutMs: 120_000,
      signal,
    });
    if (result.aborted) throw signal.reason;
    let output: PyrightOutput;
    try {
      output = JSON.parse(result.stdout) as PyrightOutput;
    } catch {
      throw new ToolError(
        "INTERNAL",
        `pyright failed (exit ${String(result.code)}): ${(result.spawnError ?? result.stderr ?? result.stdout).slice(0, 500)}`,
      );
    }
    const errors = (output.generalDiagnostics ?? [])
      .filter((d) => d.severity === "error")
      .map((d) => ({
        line: (d.range?.start.line ?? -1) + 1,
        column: (d.range?.start.character ?? -1) + 1,
        code: d.rule ?? "pyright",
        message: d.message,
      }));
    return { tool: `pyright ${output.version ?? ""}`.trim(), errors };
  }
}
