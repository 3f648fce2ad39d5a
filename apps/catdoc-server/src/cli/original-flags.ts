/**
 * The original CatDoc's command line, read here. Most of its short flags are declared by the
 * commands themselves (init -f -n, import -d, list -d -f -l and `list` without a kind, search -d
 * -l, trace -a, dashboard -p -o); this pass handles, before commander parses, the flags whose
 * letter means something else here or which have no counterpart:
 * - `-p` after `dashboard` is the original's `--port` (everywhere else `-p` is `--project`);
 * - `-c, --config <root>/.catdoc/config.yaml` names the project: it becomes `--project <root>`;
 * - `-v, --verbose`, `import -f` without a format, `trace --category` without an id,
 *   `validate --categories|--functors|--natural-transformations` and `search --functor|--natural`
 *   are bad usage whose message names what to use instead.
 * The original's flags are those of its commander program (its CLI entry), listed in docs/catdoc.md
 * ("Coming from the original CatDoc").
 */
import { basename, dirname, resolve } from "node:path";
import { CliUsageError } from "./cli-errors.js";

/** The program's option that takes a value (before the command): its value is never a command. */
const PROJECT_OPTIONS = new Set(["-p", "--project"]);

const IMPORT_FORMATS = new Set(["text", "json"]);

const VALIDATE_SCOPES: Record<string, string> = {
  "--categories": "--category <id>",
  "--functors": "--functor <id>",
  "--natural-transformations": "--nt <id>",
};

/** The original's `search --functor <name>` and `--natural <name>`: searches by mapping, which `show` lists here. */
const SEARCH_BY_MAPPING: Record<string, string> = {
  "--functor": "a functor's object and morphism mappings are `catdoc show functor <id>`",
  "--natural": "a natural transformation's components are `catdoc show nt <id>`",
};

function refuseVerbose(flag: string): never {
  throw new CliUsageError(
    `${flag} is the original CatDoc's --verbose, which has no counterpart: progress and notes already go to stderr; the version is -V, --version`,
  );
}

/** The project root a `-c/--config` path names, or a usage error naming --project. */
function projectOfConfig(path: string | undefined, cwd: string): string {
  if (path === undefined || path === "" || path.startsWith("-"))
    throw new CliUsageError("-c, --config needs a path: <root>/.catdoc/config.yaml");
  const file = resolve(cwd, path);
  if (basename(file) !== "config.yaml" || basename(dirname(file)) !== ".catdoc") {
    throw new CliUsageError(
      `-c, --config '${path}': the configuration is always <project>/.catdoc/config.yaml here; choose the project with --project <path>`,
    );
  }
  return dirname(dirname(file));
}

/**
 * `argv` (user arguments) with the original CatDoc's flags rewritten to ours; throws a
 * CliUsageError naming the replacement for a flag that has none with the same meaning.
 */
export function adaptOriginalArguments(argv: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  let command: string | undefined;
  let projectGiven = false;
  let configRoot: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? "";
    const next = argv[i + 1];
    if (arg === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (arg === "-v" || arg === "--verbose") refuseVerbose(arg);
    if (arg === "-c" || arg === "--config" || arg.startsWith("--config=")) {
      const inline = arg.startsWith("--config=") ? arg.slice("--config=".length) : undefined;
      configRoot = projectOfConfig(inline ?? next, cwd);
      if (inline === undefined) i += 1;
      continue;
    }
    if (command === undefined) {
      if (PROJECT_OPTIONS.has(arg)) {
        projectGiven = true;
        out.push(arg, ...(next === undefined ? [] : [next]));
        i += 1;
        continue;
      }
      if (arg.startsWith("--project=")) projectGiven = true;
      else if (!arg.startsWith("-")) command = arg;
      out.push(arg);
      continue;
    }
    if (command === "dashboard" && arg.startsWith("-p") && !arg.startsWith("-p=")) {
      // The original's `catdoc dashboard -p 3000` (also `-p3000`).
      out.push("--port", ...(arg.length > 2 ? [arg.slice(2)] : []));
      continue;
    }
    if (arg === "-p" || arg === "--project" || arg.startsWith("--project=")) projectGiven = true;
    if (command === "import" && arg === "-f" && (next === undefined || !IMPORT_FORMATS.has(next))) {
      throw new CliUsageError(
        "in `catdoc import`, -f is --format <text|json>; the original CatDoc's -f (overwrite existing objects) is --force",
      );
    }
    if (command === "trace" && arg === "--category" && (next === undefined || next.startsWith("-"))) {
      throw new CliUsageError(
        "trace --category takes a category id here (trace inside it); the original CatDoc's --category (the target is a category) is --to-category: catdoc trace <source> --to-category <category>",
      );
    }
    if (command === "validate" && Object.hasOwn(VALIDATE_SCOPES, arg)) {
      throw new CliUsageError(
        `validate ${arg} is the original CatDoc's: catdoc validate checks every category, functor and natural transformation; one of them: ${VALIDATE_SCOPES[arg]}`,
      );
    }
    const flag = arg.split("=")[0] ?? arg;
    if (command === "search" && Object.hasOwn(SEARCH_BY_MAPPING, flag)) {
      throw new CliUsageError(
        `search ${flag} is the original CatDoc's search by mapping: ${SEARCH_BY_MAPPING[flag]}; search itself narrows with --domain or --category <id>`,
      );
    }
    out.push(arg);
  }
  if (configRoot !== undefined) {
    if (projectGiven) throw new CliUsageError("give the project once: --project <path> or -c <root>/.catdoc/config.yaml, not both");
    out.unshift("--project", configRoot);
  }
  return out;
}
