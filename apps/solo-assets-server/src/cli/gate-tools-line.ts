/** The `gate tools` line of `solo-assets status`. */
import type { GateTools } from "../services.js";

export function gateToolsLine(tools: GateTools): string {
  return `${tools.linter}, ${tools.typer}, sandbox ${tools.sandbox.kind ?? "unavailable (tests not run)"}, limits ${tools.sandbox.limits}`;
}
