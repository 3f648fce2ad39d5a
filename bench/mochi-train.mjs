// Benchmark (issue 18 item 8): mochi train's trainer against a plain transformers + peft loop on
// the same data, in tokens a second. The measurement is bench/mochi_train_bench.py (Python: it
// needs torch, transformers and peft, as `mochi train` does); PYTHON picks the interpreter.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const python = process.env.PYTHON || "python3";
const script = fileURLToPath(new URL("mochi_train_bench.py", import.meta.url));
const result = spawnSync(python, [script], { stdio: "inherit" });
if (result.error) console.error(`mochi-train: ${python} could not be started: ${result.error.message}`);
process.exitCode = result.status ?? 1;
