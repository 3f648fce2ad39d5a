// Build step: the dashboard page's static files (HTML, CSS, browser JS) are not TypeScript, so
// tsc does not emit them; copy src/dashboard/assets to dist/dashboard/assets next to the
// compiled server that serves them.
import { cpSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const from = fileURLToPath(new URL("../src/dashboard/assets/", import.meta.url));
const to = fileURLToPath(new URL("../dist/dashboard/assets/", import.meta.url));
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
process.stdout.write(`copied dashboard assets to ${to}\n`);
