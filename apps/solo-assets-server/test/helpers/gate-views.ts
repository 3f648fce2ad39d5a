/** Typed views of save_function's answer for assertions. */
import type { ToolAnswer } from "./test-library.js";

export interface StepView {
  step: string;
  status: string;
  tool: string;
  summary: string;
  outcome?: string;
  errors?: { code: string; message: string; line: number }[];
  fixed?: { code: string }[];
  unfixed?: { code: string }[];
  cases?: { label: string; passed: boolean; error?: string; actual?: string }[];
  environment?: { hash: string; reused: boolean; dependencies: string[] };
  sandbox?: { network_isolated: boolean; kind?: string; limits?: string };
  traceback?: string;
  backend?: string;
  model?: string;
  score?: number;
  scores?: Record<string, number>;
}

export interface SaveView {
  name: string;
  version: number;
  status: "active" | "broken" | "unverified";
  critic: string;
  rejection?: { step: string; kind: string; message: string; details?: string };
  code?: string;
  code_changed?: boolean;
  gate_report?: { steps: StepView[] };
}

export function saveView(answer: ToolAnswer): SaveView {
  if (answer.isError) throw new Error(`save_function failed: ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as SaveView;
}

export function step(view: SaveView, name: "lint" | "type" | "test" | "critic"): StepView {
  const found = view.gate_report?.steps.find((s) => s.step === name);
  if (!found) throw new Error(`no ${name} step in ${JSON.stringify(view)}`);
  return found;
}
