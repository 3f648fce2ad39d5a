/**
 * The dashboard's REST API, the original CatDoc dashboard's endpoints with their response
 * shapes (see views.ts, graph.ts, trace-view.ts). Every endpoint reads; none changes the
 * project. `validate` and `trace` answer GET (query string) and POST (JSON body, as the
 * original did). Each request reads the project through the store, which reuses the parsed
 * project while category.yaml and config.yaml are unchanged.
 */
import { HttpError } from "@local-mcp/core";
import { CatDocInputError, validateCategory, validateFunctor, validateNaturalTransformation, validateProject } from "../domain/index.js";
import type { CatDocProject, CatDocStore, ValidationReport } from "../domain/index.js";
import { categoryDetail, functorDetail, morphismDetail, naturalTransformationDetail, objectDetail } from "./details.js";
import { buildGraph } from "./graph.js";
import { coverageView, searchView, suspectLinksView } from "./traceability-views.js";
import { traceView } from "./trace-view.js";
import { categorySummaries, functorSummaries, morphismViews, naturalTransformationSummaries, objectViews, parseLimit } from "./views.js";

/** What a handler gets: the parameters (the JSON body's fields for POST, the query's for GET) and the store. */
export interface ApiCall {
  params: ApiParams;
  store: CatDocStore;
}

/** Parameters from the query string or a JSON body, read the same way. */
export class ApiParams {
  private readonly values: Record<string, unknown>;

  constructor(values: Record<string, unknown>) {
    this.values = values;
  }

  static fromQuery(query: URLSearchParams): ApiParams {
    const values: Record<string, unknown> = {};
    for (const [key, value] of query) values[key] = value;
    return new ApiParams(values);
  }

  /** A non-empty string under any of `names`, or undefined. */
  text(...names: string[]): string | undefined {
    for (const name of names) {
      const value = this.values[name];
      if (value === undefined || value === null || value === "") continue;
      if (typeof value === "string") return value;
      if (typeof value === "number") return String(value);
      throw new CatDocInputError(`${name} must be a string`, { [name]: value });
    }
    return undefined;
  }

  flag(name: string): boolean {
    const value = this.values[name];
    if (value === undefined || value === null || value === "" || value === false || value === "false" || value === "0") return false;
    if (value === true || value === "true" || value === "1") return true;
    throw new CatDocInputError(`${name} must be true or false`, { [name]: value });
  }

  positiveInteger(name: string): number | undefined {
    const value = this.values[name];
    if (typeof value === "number") return parseLimit(String(value), name);
    return parseLimit(this.text(name), name);
  }
}

type Handler = (call: ApiCall, id: string | undefined) => Promise<unknown>;

interface Route {
  methods: ReadonlyArray<"GET" | "POST">;
  /** Handles `/api/<name>`; `item` handles `/api/<name>/<id>`. */
  list?: Handler;
  item?: Handler;
}

async function load(call: ApiCall): Promise<CatDocProject> {
  return call.store.load();
}

function limited<T>(items: T[], limit: number | undefined): T[] {
  return limit === undefined ? items : items.slice(0, limit);
}

async function health(call: ApiCall): Promise<unknown> {
  const root = call.store.paths.root;
  const body = { status: "ok", timestamp: new Date().toISOString() };
  if (!(await call.store.isInitialized())) return { ...body, project: { root, initialized: false } };
  try {
    const project = await call.store.load();
    return { ...body, project: { root, initialized: true, name: project.settings.projectName, version: project.version } };
  } catch (error) {
    // The server is up; the project file is not readable as it is. Say why.
    return { ...body, project: { root, initialized: true, problem: error instanceof Error ? error.message : String(error) } };
  }
}

async function validate(call: ApiCall): Promise<ValidationReport> {
  const { index } = await load(call);
  const categoryId = call.params.text("categoryId", "category");
  const functorId = call.params.text("functorId", "functor");
  const ntId = call.params.text("naturalTransformationId", "nt");
  const chosen = [categoryId, functorId, ntId].filter((value) => value !== undefined);
  if (chosen.length > 1) throw new CatDocInputError("Validate one category, functor or natural transformation at a time");
  if (categoryId !== undefined) return validateCategory(index, categoryId);
  if (functorId !== undefined) return validateFunctor(index, functorId);
  if (ntId !== undefined) return validateNaturalTransformation(index, ntId);
  return validateProject(index);
}

async function trace(call: ApiCall): Promise<unknown> {
  const { index } = await load(call);
  const source = call.params.text("source", "sourceId");
  const target = call.params.text("target", "targetId");
  const toCategory = call.params.text("toCategory");
  if (source === undefined || (target === undefined && toCategory === undefined)) {
    throw new CatDocInputError("Missing source or target");
  }
  const categoryId = call.params.text("categoryId", "category");
  const maxDepth = call.params.positiveInteger("maxDepth");
  return traceView(index, {
    source,
    ...(target === undefined ? {} : { target }),
    ...(categoryId === undefined ? {} : { categoryId }),
    ...(toCategory === undefined ? {} : { toCategory }),
    all: call.params.flag("all"),
    ...(maxDepth === undefined ? {} : { maxDepth }),
  });
}

const ROUTES: Record<string, Route> = {
  health: { methods: ["GET"], list: health },
  objects: {
    methods: ["GET"],
    list: async (call) => {
      const { index } = await load(call);
      const domain = call.params.text("domain");
      const categoryId = call.params.text("category", "categoryId");
      const all = objectViews(index, { ...(domain === undefined ? {} : { domain }), ...(categoryId === undefined ? {} : { categoryId }) });
      return { objects: limited(all, call.params.positiveInteger("limit")), total: all.length };
    },
    item: async (call, id = "") => objectDetail(await load(call), id),
  },
  morphisms: {
    methods: ["GET"],
    list: async (call) => {
      const { index } = await load(call);
      const categoryId = call.params.text("category", "categoryId");
      const source = call.params.text("source");
      const target = call.params.text("target");
      const all = morphismViews(index, {
        ...(categoryId === undefined ? {} : { categoryId }),
        ...(source === undefined ? {} : { source }),
        ...(target === undefined ? {} : { target }),
      });
      return { morphisms: limited(all, call.params.positiveInteger("limit")), total: all.length };
    },
    item: async (call, id = "") => morphismDetail((await load(call)).index, id),
  },
  categories: {
    methods: ["GET"],
    list: async (call) => ({ categories: categorySummaries((await load(call)).index) }),
    item: async (call, id = "") => categoryDetail((await load(call)).index, id),
  },
  functors: {
    methods: ["GET"],
    list: async (call) => ({ functors: functorSummaries((await load(call)).index, call.params.text("category", "categoryId")) }),
    item: async (call, id = "") => functorDetail((await load(call)).index, id),
  },
  "natural-transformations": {
    methods: ["GET"],
    list: async (call) => ({
      naturalTransformations: naturalTransformationSummaries((await load(call)).index, call.params.text("category", "categoryId")),
    }),
    item: async (call, id = "") => naturalTransformationDetail((await load(call)).index, id),
  },
  graph: {
    methods: ["GET"],
    list: async (call) => {
      const categoryId = call.params.text("category", "categoryId");
      return buildGraph((await load(call)).index, {
        ...(categoryId === undefined ? {} : { categoryId }),
        functors: call.params.flag("functors"),
      });
    },
  },
  validate: { methods: ["GET", "POST"], list: validate },
  coverage: { methods: ["GET"], list: async (call) => coverageView(await load(call), call.params.text("functor", "functorId")) },
  "suspect-links": { methods: ["GET"], list: async (call) => suspectLinksView(await load(call)) },
  search: {
    methods: ["GET"],
    list: async (call) =>
      searchView(await load(call), call.params.text("q", "query"), {
        categoryId: call.params.text("category", "categoryId"),
        limit: call.params.positiveInteger("limit"),
      }),
  },
  trace: { methods: ["GET", "POST"], list: trace },
};

/** The route for a path, or an HttpError (404 unknown path, 405 wrong method). */
export function findHandler(method: string, segments: string[]): { handler: Handler; id: string | undefined } {
  const [name, id, ...rest] = segments;
  const route = name === undefined ? undefined : ROUTES[name];
  const handler = route === undefined || rest.length > 0 ? undefined : id === undefined ? route.list : route.item;
  if (route === undefined || handler === undefined) throw new HttpError(404, "NOT_FOUND", "Not found");
  const allowed: string[] = [...route.methods];
  if (allowed.includes("GET")) allowed.push("HEAD");
  if (!allowed.includes(method)) {
    throw new HttpError(405, "INVALID_INPUT", `Method ${method} not allowed here; use ${allowed.join(", ")}`, {
      Allow: allowed.join(", "),
    });
  }
  return { handler, id };
}
