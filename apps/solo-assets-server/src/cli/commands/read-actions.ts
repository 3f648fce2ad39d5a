/** What status, list, search, get and history do (read-commands.ts defines them). */
import type { FunctionStatus } from "../../domain/gate/gate-report.js";
import { withServices } from "../cli-services.js";
import type { CliSetup } from "../cli-setup.js";
import { gateToolsLine } from "../gate-tools-line.js";

export interface StatusOptions {
  json?: boolean;
}
export interface ListOptions {
  status?: FunctionStatus;
  tag: string[];
  text?: string;
  limit: number;
  json?: boolean;
}
export interface SearchOptions {
  limit: number;
  tag: string[];
  includeBroken?: boolean;
  json?: boolean;
}
export interface GetOptions {
  version?: number;
  inline?: boolean;
  json?: boolean;
}
export interface HistoryOptions {
  json?: boolean;
}

function json(setup: CliSetup, value: unknown): void {
  setup.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function status(setup: CliSetup, options: StatusOptions): Promise<void> {
  return withServices(setup, async (services) => {
    const counts = await services.library.counts();
    const processes = services.registry.list();
    const tools = await services.gateTools().catch((error: unknown) => ({ error: String(error) }));
    const status = {
      db_path: services.config.paths.dbPath,
      envs_dir: services.config.paths.envsDir,
      counts: { functions: counts.functions, ...counts.byStatus, versions: counts.versions },
      embeddings: counts.embeddings,
      processes,
      embedding: { backend: services.settings.embedding.backend, model: services.embedder.model, dimension: services.embedder.dimension },
      critic: { backend: services.settings.critic.backend, model: services.settings.critic.model ?? null },
      gate_tools: tools,
    };
    if (options.json) return json(setup, status);
    const lines = [
      `database     ${status.db_path}`,
      `functions    ${counts.functions} (active ${counts.byStatus.active}, broken ${counts.byStatus.broken}, unverified ${counts.byStatus.unverified}); ${counts.versions} versions`,
      `embedder     ${status.embedding.backend} ${status.embedding.model} (${status.embedding.dimension})`,
      `critic       ${status.critic.backend}${status.critic.model ? ` ${status.critic.model}` : ""}`,
      `gate tools   ${"error" in tools ? tools.error : gateToolsLine(tools)}`,
      `vectors      ${counts.embeddings.map((e) => `${e.model}/${e.dimension}: ${e.count}`).join(", ") || "none"}`,
      `processes    ${processes.map((p) => `${p.kind} ${p.pid}`).join(", ") || "none"}`,
    ];
    setup.io.stdout.write(`${lines.join("\n")}\n`);
  });
}

export function list(setup: CliSetup, options: ListOptions): Promise<void> {
  return withServices(setup, async (services) => {
    const { total, functions } = await services.library.list(
      {
        ...(options.status ? { statuses: [options.status] } : {}),
        ...(options.tag.length ? { tags: options.tag } : {}),
        ...(options.text ? { text: options.text } : {}),
      },
      { limit: options.limit, offset: 0 },
    );
    if (options.json)
      return json(setup, {
        total,
        functions: functions.map((f) => ({ name: f.name, status: f.status, version: f.version, description: f.description, tags: f.tags })),
      });
    for (const f of functions)
      setup.io.stdout.write(`${f.name.padEnd(32)} ${f.status.padEnd(10)} v${String(f.version).padEnd(4)} ${f.description}\n`);
    setup.io.stdout.write(`${functions.length} of ${total} function(s)\n`);
  });
}

export function search(setup: CliSetup, words: string[], options: SearchOptions): Promise<void> {
  return withServices(setup, async (services) => {
    const outcome = await services.library.search({
      query: words.join(" "),
      limit: options.limit,
      tags: options.tag,
      includeBroken: options.includeBroken === true,
    });
    if (options.json) {
      return json(setup, {
        model: outcome.embedding.model,
        results: outcome.hits.map((h) => ({
          name: h.function.name,
          status: h.function.status,
          score: h.score,
          signature: h.function.signature,
          description: h.function.description,
        })),
      });
    }
    for (const hit of outcome.hits) {
      setup.io.stdout.write(
        `${hit.score.toFixed(4)}  ${hit.function.name} [${hit.function.status}]\n        ${hit.function.signature}\n        ${hit.function.description}\n`,
      );
    }
    if (outcome.hits.length === 0) setup.io.stdout.write("no matches\n");
    if (outcome.unembedded > 0)
      setup.io.stderr.write(
        `note: ${outcome.unembedded} function(s) have no ${outcome.embedding.model} vector; run \`solo-assets reindex\`\n`,
      );
  });
}

export function get(setup: CliSetup, name: string, options: GetOptions): Promise<void> {
  return withServices(setup, async (services) => {
    const found = await services.library.get(name, options.version);
    const chosen = found.version ?? found.current;
    if (!chosen) return;
    const imports = chosen.metadata.gate.library?.imports ?? [];
    const code =
      options.inline === true && imports.length > 0
        ? (
            await (
              await import("../../domain/library/function-export.js")
            ).inlineFunction(
              { db: services.library.db, python: services.config.python, env: services.config.toolEnv },
              { ...chosen, imports },
            )
          ).text
        : chosen.code;
    if (options.json) return json(setup, { ...chosen, code });
    setup.io.stdout.write(code.endsWith("\n") ? code : `${code}\n`);
  });
}

export function history(setup: CliSetup, name: string, options: HistoryOptions): Promise<void> {
  return withServices(setup, async (services) => {
    const { current, versions } = await services.library.history(name);
    const rows = versions.map((v) => ({
      version: v.version,
      status: v.status,
      saved_at: v.createdAt,
      rejection: v.metadata.gate.rejection?.kind ?? null,
    }));
    if (options.json) return json(setup, { name, deleted: current === undefined, versions: rows });
    for (const r of rows)
      setup.io.stdout.write(
        `v${String(r.version).padEnd(4)} ${r.status.padEnd(10)} ${r.saved_at}${r.rejection ? `  rejected: ${r.rejection}` : ""}\n`,
      );
    if (!current) setup.io.stdout.write("(deleted from the library; the versions above remain)\n");
  });
}
