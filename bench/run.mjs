// `pnpm bench`: runs every benchmark in turn and prints its figures. Heavy measurements live here,
// not in tests. Run one with `node bench/run.mjs <name>`.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const benchmarks = {
  "core-server": "core-server.mjs",
  inference: "inference.mjs",
  catdoc: "catdoc.mjs",
  "code-analysis": "code-analysis.mjs",
  "local-model": "local-model.mjs",
  mochi: "mochi.mjs",
  "mochi-latency": "mochi-latency.mjs",
  "mochi-context": "mochi-context.mjs",
  "mochi-eval": "mochi-eval.mjs",
  "mochi-train": "mochi-train.mjs",
  "solo-assets": "solo-assets.mjs",
  startup: "startup.mjs",
};
const only = process.argv.slice(2);
let failed = 0;
for (const [name, file] of Object.entries(benchmarks)) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n### ${name}`);
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(file, import.meta.url))], { stdio: "inherit" });
  if (result.status !== 0) failed += 1;
}
process.exitCode = failed === 0 ? 0 : 1;
