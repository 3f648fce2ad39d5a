/**
 * The dashboard's JSON API. Reads need only a loopback request; every change (delete, settings,
 * API key, reindex) also needs the dashboard's token in `x-solo-token`. The API key is accepted
 * and stored but never returned: the settings view says only whether one is set and where from.
 */
import type { IncomingMessage } from "node:http";
import { isAbsolute } from "node:path";
import { HttpError, readJsonObject } from "@local-mcp/core";
import { z } from "zod";
import type { FunctionStatus } from "../domain/gate/gate-report.js";
import { FUNCTION_STATUSES } from "../domain/gate/gate-report.js";
import { StoredSettingsSchema } from "../domain/settings/settings-store.js";
import type { StoredSettings } from "../domain/settings/settings-store.js";
import type { SoloServices } from "../services.js";

export interface DashboardContext {
  /** The services as configured now (rebuilt after a settings change). */
  services(): SoloServices;
  /** Rebuilds the services from the environment and the settings file. */
  reload(): void;
  version: string;
  url: string;
}

interface Route {
  method: "GET" | "PUT" | "POST" | "DELETE";
  path: RegExp;
  /** Changes something: needs the token. */
  mutates: boolean;
  handle(match: RegExpExecArray, req: IncomingMessage, url: URL, ctx: DashboardContext): Promise<unknown>;
}

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const SettingsPatchSchema = z
  .object({
    embedder: nullable(StoredSettingsSchema.shape.embedder.unwrap()),
    embedding_model: nullable(z.string().trim().min(1).max(200)),
    embedding_url: nullable(StoredSettingsSchema.shape.embeddingUrl.unwrap()),
    embedding_model_path: nullable(
      z
        .string()
        .trim()
        .min(1)
        .max(4096)
        .refine((p) => isAbsolute(p), "must be an absolute path (the dashboard has no working directory of its own)"),
    ),
    embedding_dimension: nullable(z.number().int().min(16).max(3072)),
    critic: nullable(StoredSettingsSchema.shape.critic.unwrap()),
    critic_model: nullable(z.string().trim().min(1).max(200)),
    critic_model_path: nullable(z.string().trim().min(1).max(4096)),
  })
  .strict();

function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new HttpError(400, "INVALID_INPUT", parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  return parsed.data;
}

function settingsView(services: SoloServices) {
  const { embedding, critic, apiKey } = services.settings;
  const overrides = Object.entries(services.config.overrides)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
  return {
    embedding,
    critic,
    stored: services.settingsStore.read(),
    overridden_by_environment: overrides,
    api_key: { set: apiKey.source !== "none", source: apiKey.source, environment_wins: apiKey.source === "environment" },
    files: { settings: services.config.paths.settingsPath, api_key: services.config.paths.apiKeyPath },
  };
}

function functionView(services: SoloServices, name: string) {
  return services.library.history(name).then(({ current, versions }) => ({
    function: current
      ? {
          name: current.name,
          version: current.version,
          status: current.status,
          description: current.description,
          signature: current.signature,
          docstring: current.docstring,
          tags: current.tags,
          dependencies: current.dependencies,
          test_cases: current.testCases,
          code: current.code,
          gate: current.metadata.gate,
          embedding: current.metadata.embedding,
          created_at: current.createdAt,
          updated_at: current.updatedAt,
        }
      : null,
    history: versions.map((v) => ({
      version: v.version,
      status: v.status,
      saved_at: v.createdAt,
      rejection: v.metadata.gate.rejection?.kind ?? null,
    })),
  }));
}

const NAME = "([A-Za-z_][A-Za-z0-9_]{0,99})";

const ROUTES: Route[] = [
  {
    method: "GET",
    path: /^\/api\/status$/,
    mutates: false,
    handle: async (_m, _req, _url, ctx) => {
      const services = ctx.services();
      const [counts, tools] = await Promise.all([services.library.counts(), services.gateTools().catch(() => undefined)]);
      return {
        version: ctx.version,
        dashboard: ctx.url,
        db_path: services.config.paths.dbPath,
        envs_dir: services.config.paths.envsDir,
        counts: { functions: counts.functions, ...counts.byStatus, versions: counts.versions },
        embeddings: counts.embeddings,
        processes: services.registry.list(),
        embedding: { backend: services.settings.embedding.backend, model: services.embedder.model, dimension: services.embedder.dimension },
        critic: { backend: services.settings.critic.backend, model: services.settings.critic.model ?? null },
        gate_tools: tools
          ? {
              linter: tools.linter,
              typer: tools.typer,
              sandbox: tools.sandbox.kind ?? null,
              network_isolation: tools.sandbox.networkIsolated,
              limits: tools.sandbox.limits,
              prlimit: tools.sandbox.prlimit !== undefined,
            }
          : null,
      };
    },
  },
  {
    method: "GET",
    path: /^\/api\/functions$/,
    mutates: false,
    handle: async (_m, _req, url, ctx) => {
      const status = url.searchParams.get("status");
      const text = url.searchParams.get("text") ?? "";
      const tag = url.searchParams.get("tag") ?? "";
      const limit = Math.min(500, Math.max(1, Number(url.searchParams.get("limit") ?? 200) || 200));
      const offset = Math.max(0, Number(url.searchParams.get("offset") ?? 0) || 0);
      if (status && !FUNCTION_STATUSES.includes(status as FunctionStatus))
        throw new HttpError(400, "INVALID_INPUT", `Unknown status ${status}.`);
      const { total, functions } = await ctx.services().library.list(
        {
          ...(status ? { statuses: [status as FunctionStatus] } : {}),
          ...(text.trim() ? { text } : {}),
          ...(tag.trim() ? { tags: [tag.trim().toLowerCase()] } : {}),
        },
        { limit, offset },
      );
      return {
        total,
        functions: functions.map((f) => ({
          name: f.name,
          status: f.status,
          version: f.version,
          description: f.description,
          tags: f.tags,
          updated_at: f.updatedAt,
        })),
      };
    },
  },
  {
    method: "GET",
    path: new RegExp(`^/api/functions/${NAME}$`),
    mutates: false,
    handle: async (m, _req, _url, ctx) => functionView(ctx.services(), m[1] ?? ""),
  },
  {
    method: "GET",
    path: new RegExp(`^/api/functions/${NAME}/versions/(\\d{1,9})$`),
    mutates: false,
    handle: async (m, _req, _url, ctx) => {
      const { version } = await ctx.services().library.get(m[1] ?? "", Number(m[2]));
      if (!version) throw new HttpError(404, "NOT_FOUND", "No such version.");
      return {
        name: version.name,
        version: version.version,
        status: version.status,
        description: version.description,
        code: version.code,
        submitted_code: version.submittedCode,
        gate: version.metadata.gate,
        saved_at: version.createdAt,
      };
    },
  },
  {
    method: "DELETE",
    path: new RegExp(`^/api/functions/${NAME}$`),
    mutates: true,
    handle: async (m, _req, _url, ctx) => {
      const deleted = await ctx.services().library.delete(m[1] ?? "");
      return { name: deleted.name, deleted: true, versions_kept: deleted.versionsKept };
    },
  },
  {
    method: "GET",
    path: /^\/api\/settings$/,
    mutates: false,
    handle: async (_m, _req, _url, ctx) => settingsView(ctx.services()),
  },
  {
    method: "PUT",
    path: /^\/api\/settings$/,
    mutates: true,
    handle: async (_m, req, _url, ctx) => {
      const patch = parseOrThrow(SettingsPatchSchema, await readJsonObject(req, { requireJsonType: true }));
      const mapped: { [K in keyof StoredSettings]?: StoredSettings[K] | null } = {
        embedder: patch.embedder,
        embeddingModel: patch.embedding_model,
        embeddingUrl: patch.embedding_url,
        embeddingModelPath: patch.embedding_model_path,
        embeddingDimension: patch.embedding_dimension,
        critic: patch.critic,
        criticModel: patch.critic_model,
        criticModelPath: patch.critic_model_path,
      };
      await ctx.services().settingsStore.update(mapped);
      ctx.reload();
      return settingsView(ctx.services());
    },
  },
  {
    method: "PUT",
    path: /^\/api\/settings\/api-key$/,
    mutates: true,
    handle: async (_m, req, _url, ctx) => {
      const { key } = parseOrThrow(
        z.object({ key: z.string().min(1).max(512) }).strict(),
        await readJsonObject(req, { requireJsonType: true }),
      );
      try {
        await ctx.services().settingsStore.writeApiKey(key);
      } catch (error) {
        throw new HttpError(400, "INVALID_INPUT", (error as Error).message);
      }
      ctx.reload();
      return settingsView(ctx.services());
    },
  },
  {
    method: "DELETE",
    path: /^\/api\/settings\/api-key$/,
    mutates: true,
    handle: async (_m, _req, _url, ctx) => {
      ctx.services().settingsStore.clearApiKey();
      ctx.reload();
      return settingsView(ctx.services());
    },
  },
  {
    method: "POST",
    path: /^\/api\/reindex$/,
    mutates: true,
    handle: async (_m, _req, _url, ctx) => {
      const outcome = await ctx.services().library.reindex();
      return {
        model: outcome.model,
        dimension: outcome.dimension,
        embedded: outcome.embedded,
        up_to_date: outcome.upToDate,
        fingerprinted: outcome.fingerprinted,
      };
    },
  },
];

export function findRoute(method: string, pathname: string): { route: Route; match: RegExpExecArray } | "method" | undefined {
  let pathMatched = false;
  for (const route of ROUTES) {
    const match = route.path.exec(pathname);
    if (!match) continue;
    pathMatched = true;
    if (route.method === method) return { route, match };
  }
  return pathMatched ? "method" : undefined;
}
