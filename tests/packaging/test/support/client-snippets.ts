/**
 * Reads the client snippets the user docs show — the README's "Use a server" block and every
 * fenced block of docs/clients.md — into launches: which package and bin a snippet starts, with
 * which arguments and environment, as which client, and whether that client starts it in the
 * project. Pure parsing and static checks; client-snippets.test.ts runs the launches for real.
 */

/** A fenced code block: its info string split into language and the rest (the file it shows). */
export interface Fence {
  lang: string;
  meta: string;
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export function fencedBlocks(markdown: string): Fence[] {
  const blocks: Fence[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(```+)\s*([^\s`]*)\s*(.*)$/.exec(lines[i] ?? "");
    if (!open) continue;
    const fence = open[1] ?? "```";
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j] ?? "").startsWith(fence)) body.push(lines[j++] ?? "");
    blocks.push({ lang: open[2] ?? "", meta: (open[3] ?? "").trim(), body: body.join("\n"), line: i + 1 });
    i = j;
  }
  return blocks;
}

/** The text of the section under `## title` (up to the next `## `), with its first line number. */
export function section(markdown: string, title: string): { text: string; line: number } {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start < 0) throw new Error(`no section "## ${title}"`);
  let end = start + 1;
  while (end < lines.length && !(lines[end] ?? "").startsWith("## ")) end++;
  return { text: lines.slice(start, end).join("\n"), line: start + 1 };
}

/**
 * Splits one POSIX shell command line into words: single and double quotes, backslash escapes,
 * `#` comments. Variables and globs are not expanded; a snippet that needs them fails loudly.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? "";
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${line}`);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let text = "";
      while (j < line.length && line[j] !== '"') {
        if (line[j] === "\\" && j + 1 < line.length) j++;
        if (line[j] === "$" || line[j] === "`") throw new Error(`shell expansion is not supported in: ${line}`);
        text += line[j];
        j++;
      }
      if (j >= line.length) throw new Error(`unclosed " in: ${line}`);
      word = (word ?? "") + text;
      i = j;
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "#" && word === undefined) {
      break;
    } else if (c === "$" || c === "`" || c === "*" || c === "?" || c === ";" || c === "|" || c === "&" || c === "<" || c === ">") {
      throw new Error(`shell syntax '${c}' is not supported in a snippet: ${line}`);
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The command lines of a shell block: comments dropped, `\` continuations joined. */
export function shellLines(body: string): string[] {
  return body
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** The clients whose configuration formats docs/clients.md shows, and the server's working directory each gives. */
export type Client = "shell" | "claude-code" | "mcp.json" | "vscode" | "cursor" | "claude-desktop";

/** Where the client starts a stdio server: in the project (Claude Code, a shell) or elsewhere. */
export const STARTS_IN_PROJECT: Record<Client, boolean> = {
  shell: true,
  "claude-code": true,
  "mcp.json": true,
  vscode: false,
  cursor: false,
  "claude-desktop": false,
};

/** JSON snippets are labelled with the file they show (the fence's info string after `json`). */
export const JSON_FILES: Record<string, { client: Client; key: "servers" | "mcpServers" }> = {
  ".mcp.json": { client: "mcp.json", key: "mcpServers" },
  ".vscode/mcp.json": { client: "vscode", key: "servers" },
  ".cursor/mcp.json": { client: "cursor", key: "mcpServers" },
  "~/.cursor/mcp.json": { client: "cursor", key: "mcpServers" },
  "claude_desktop_config.json": { client: "claude-desktop", key: "mcpServers" },
};

/** One process a snippet starts. */
export interface Launch {
  /** Where it comes from, for failure messages: `docs/clients.md:120 .vscode/mcp.json "catdoc"`. */
  source: string;
  client: Client;
  /** `server`: an MCP server over stdio; `http`: one over Streamable HTTP at `url`; `cli`: a command that must exit 0. */
  kind: "server" | "http" | "cli";
  /** The command and arguments exactly as the snippet gives them (`npx`, `-y`, `@local-mcp/…`). */
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The package and bin the npx command names. */
  pkg: string;
  bin: string;
  binArgs: string[];
  /** For `http`: the URL the client is given. */
  url?: string;
}

/**
 * What `npx` runs: `npx -y <pkg> [args]` runs the package's default bin (npm: the single bin,
 * else the one named like the package's unscoped name); `npx -p <pkg> <bin> [args]` runs `bin`.
 * A Windows `cmd /c` in front is dropped.
 */
export function npxTarget(command: string, args: string[]): { pkg: string; bin: string; binArgs: string[] } {
  let words = [command, ...args];
  if (words[0]?.toLowerCase() === "cmd" && words[1]?.toLowerCase() === "/c") words = words.slice(2);
  if (words[0] !== "npx") throw new Error(`not an npx command: ${words.join(" ")}`);
  const rest = words.slice(1);
  let pkg: string | undefined;
  let yes = false;
  while (rest.length > 0 && rest[0]?.startsWith("-")) {
    const flag = rest.shift();
    if (flag === "-y" || flag === "--yes") yes = true;
    else if (flag === "-p" || flag === "--package") pkg = rest.shift();
    else throw new Error(`unexpected npx option ${flag}`);
  }
  if (pkg !== undefined) {
    const bin = rest.shift();
    if (bin === undefined) throw new Error(`npx -p ${pkg} names no command`);
    return { pkg, bin, binArgs: rest };
  }
  if (!yes) throw new Error(`npx without -y would stop to ask before installing: npx ${rest.join(" ")}`);
  const named = rest.shift();
  if (named === undefined) throw new Error("npx names no package");
  return { pkg: named, bin: named.replace(/^@[^/]+\//, ""), binArgs: rest };
}

function splitEnv(assignment: string, where: string): [string, string] {
  const eq = assignment.indexOf("=");
  if (eq <= 0) throw new Error(`${where}: -e needs KEY=value, got '${assignment}'`);
  return [assignment.slice(0, eq), assignment.slice(eq + 1)];
}

/** `claude mcp add [options] <name> -- <command> [args]` or `claude mcp add --transport http <name> <url>`. */
export function claudeMcpAdd(
  words: string[],
  where: string,
): { name: string; scope: string; transport: string; env: Record<string, string>; command?: string[]; url?: string } {
  if (words.slice(0, 3).join(" ") !== "claude mcp add") throw new Error(`${where}: not claude mcp add`);
  const dash = words.indexOf("--");
  const head = dash < 0 ? words.slice(3) : words.slice(3, dash);
  const command = dash < 0 ? undefined : words.slice(dash + 1);
  const env: Record<string, string> = {};
  const positional: string[] = [];
  let scope = "local";
  let transport = "stdio";
  for (let i = 0; i < head.length; i++) {
    const w = head[i] ?? "";
    if (w === "-s" || w === "--scope") scope = head[++i] ?? "";
    else if (w === "-t" || w === "--transport") transport = head[++i] ?? "";
    else if (w === "-e" || w === "--env") {
      const [k, v] = splitEnv(head[++i] ?? "", where);
      env[k] = v;
    } else if (w.startsWith("-")) throw new Error(`${where}: unknown claude mcp add option ${w}`);
    else positional.push(w);
  }
  if (!["local", "user", "project"].includes(scope)) throw new Error(`${where}: --scope ${scope} is not local, user or project`);
  const name = positional[0];
  if (name === undefined) throw new Error(`${where}: claude mcp add names no server`);
  if (transport === "http") {
    if (command !== undefined || positional.length !== 2) throw new Error(`${where}: --transport http takes <name> <url>`);
    return { name, scope, transport, env, url: positional[1] };
  }
  if (transport !== "stdio") throw new Error(`${where}: transport ${transport}`);
  if (command === undefined || command.length === 0 || positional.length !== 1)
    throw new Error(`${where}: a stdio server is '<name> -- <command> [args]'`);
  return { name, scope, transport, env, command };
}

function launchOf(
  source: string,
  client: Client,
  kind: Launch["kind"],
  command: string,
  args: string[],
  env: Record<string, string>,
): Launch {
  return { source, client, kind, command, args, env, ...npxTarget(command, args) };
}

/** The launches of the README's "Use a server": every line is `npx …`; `npx -y` starts a server, `npx -p` runs a CLI. */
export function readmeLaunches(readme: string): Launch[] {
  const { text, line } = section(readme, "Use a server");
  const launches: Launch[] = [];
  for (const block of fencedBlocks(text)) {
    if (block.lang !== "sh") continue;
    for (const l of shellLines(block.body)) {
      const [command, ...args] = shellWords(l);
      if (command !== "npx") throw new Error(`README.md "Use a server": a line that is not npx: ${l}`);
      const target = npxTarget(command, args);
      const source = `README.md:${line + block.line - 1} ${l.replace(/\s+#.*$/, "")}`;
      launches.push(
        launchOf(source, "shell", args.includes("-p") ? "cli" : target.binArgs.includes("--http") ? "http" : "server", command, args, {}),
      );
    }
  }
  return launches;
}

/** The launches of docs/clients.md: shell blocks (`claude mcp add`, `npx`) and JSON blocks labelled with their file. */
export function clientsLaunches(markdown: string, file = "docs/clients.md"): Launch[] {
  const launches: Launch[] = [];
  for (const block of fencedBlocks(markdown)) {
    const where = `${file}:${block.line}`;
    if (block.lang === "json") {
      const format = JSON_FILES[block.meta];
      if (format === undefined)
        throw new Error(`${where}: a json block must name its file (one of ${Object.keys(JSON_FILES).join(", ")}), got '${block.meta}'`);
      launches.push(...jsonLaunches(JSON.parse(block.body) as unknown, block.meta, where));
    } else if (block.lang === "sh") {
      const lines = shellLines(block.body);
      let pendingHttp: Launch | undefined;
      for (const l of lines) {
        const words = shellWords(l);
        if (words[0] === "claude") {
          const add = claudeMcpAdd(words, where);
          if (add.url !== undefined) {
            if (pendingHttp === undefined) throw new Error(`${where}: an http server is added without the line that starts it`);
            pendingHttp.url = add.url;
            pendingHttp = undefined;
            continue;
          }
          const [command = "", ...args] = add.command ?? [];
          launches.push(launchOf(`${where} claude mcp add ${add.name}`, "claude-code", "server", command, args, add.env));
        } else if (words[0] === "npx") {
          const [command, ...args] = words;
          const launch = launchOf(
            `${where} ${l}`,
            "shell",
            args.includes("--http") ? "http" : args.includes("-p") ? "cli" : "server",
            command,
            args,
            {},
          );
          if (launch.kind === "http") pendingHttp = launch;
          launches.push(launch);
        } else {
          throw new Error(`${where}: a shell line this test cannot run: ${l}`);
        }
      }
      if (pendingHttp !== undefined) throw new Error(`${where}: an http server no client is given the URL of`);
    } else {
      throw new Error(`${where}: a code block in ${block.lang || "no language"}; clients.md shows sh and json only`);
    }
  }
  return launches;
}

function jsonLaunches(config: unknown, file: string, where: string): Launch[] {
  const format = JSON_FILES[file];
  if (format === undefined || typeof config !== "object" || config === null) throw new Error(`${where}: not a config object`);
  const other = format.key === "servers" ? "mcpServers" : "servers";
  if (other in config) throw new Error(`${where}: ${file} keeps its servers under "${format.key}", not "${other}"`);
  const servers = (config as Record<string, unknown>)[format.key];
  if (typeof servers !== "object" || servers === null || Object.keys(servers).length === 0)
    throw new Error(`${where}: ${file} has no "${format.key}"`);
  return Object.entries(servers as Record<string, Record<string, unknown>>).map(([name, entry]) => {
    const at = `${where} ${file} "${name}"`;
    if (format.client === "vscode" && entry.type !== "stdio") throw new Error(`${at}: VS Code needs "type": "stdio"`);
    if (entry.type !== undefined && entry.type !== "stdio") throw new Error(`${at}: type ${String(entry.type)}`);
    const { command, args = [], env = {} } = entry as { command?: unknown; args?: unknown; env?: unknown };
    if (typeof command !== "string" || !Array.isArray(args) || !args.every((a) => typeof a === "string"))
      throw new Error(`${at}: command and args`);
    if (typeof env !== "object" || env === null || !Object.values(env).every((v) => typeof v === "string"))
      throw new Error(`${at}: env values must be strings`);
    const unknownKeys = Object.keys(entry).filter((k) => !["type", "command", "args", "env"].includes(k));
    if (unknownKeys.length > 0) throw new Error(`${at}: keys this test does not know: ${unknownKeys.join(", ")}`);
    return launchOf(at, format.client, "server", command, args as string[], env as Record<string, string>);
  });
}

/** The variable that tells each server where its project is (solo-assets: none; its library is per user). */
export const PROJECT_VARIABLE: Record<string, string | undefined> = {
  "@local-mcp/catdoc-server": "CATDOC_PROJECT_PATH",
  "@local-mcp/local-model-server": "LOCAL_MODEL_ROOTS",
  "@local-mcp/mochi-server": "MOCHI_CATALOG",
  "@local-mcp/solo-assets-server": undefined,
};

/** Placeholders the docs use for the user's project: replaced by the test's copy of the example. */
export const PROJECT_PLACEHOLDERS = ["/path/to/your/project", "${workspaceFolder}"];

export function substituteProject(env: Record<string, string>, project: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) out[k] = PROJECT_PLACEHOLDERS.reduce((text, p) => text.split(p).join(project), v);
  return out;
}

/** The variable names a server's `--help` lists under "Environment:". */
export function helpVariables(help: string): Set<string> {
  const names = new Set<string>();
  const lines = help.split("\n");
  const start = lines.findIndex((l) => l.trim() === "Environment:");
  if (start < 0) return names;
  for (const l of lines.slice(start + 1)) {
    const m = /^\s{2}([A-Z][A-Z0-9_]*)\s/.exec(l);
    if (!m) break;
    names.add(m[1] ?? "");
  }
  return names;
}

/**
 * The checks that need no process: the package is one of ours and installed, the bin is one it
 * declares, every variable is one its server reads, and a client that does not start servers in
 * the project tells the server where the project is. Returns the problems (empty: fine).
 */
export function staticProblems(
  launch: Launch,
  packages: ReadonlyMap<string, { bins: readonly string[]; variables: ReadonlySet<string> }>,
): string[] {
  const problems: string[] = [];
  const pkg = packages.get(launch.pkg);
  if (pkg === undefined) return [`${launch.source}: names ${launch.pkg}, not one of ${[...packages.keys()].join(", ")}`];
  if (!pkg.bins.includes(launch.bin))
    problems.push(`${launch.source}: ${launch.pkg} has no bin '${launch.bin}' (it has ${pkg.bins.join(", ")})`);
  for (const name of Object.keys(launch.env)) {
    if (!pkg.variables.has(name)) problems.push(`${launch.source}: ${launch.pkg}'s server does not read ${name}`);
  }
  const variable = PROJECT_VARIABLE[launch.pkg];
  if (launch.kind === "server" && !STARTS_IN_PROJECT[launch.client] && variable !== undefined && launch.env[variable] === undefined) {
    problems.push(`${launch.source}: ${launch.client} does not start servers in the project, so the snippet must set ${variable}`);
  }
  return problems;
}
