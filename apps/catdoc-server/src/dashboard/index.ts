/**
 * The CatDoc dashboard: `startDashboard({ store, port, logger })` serves the REST API and the
 * page on 127.0.0.1 (used by `catdoc dashboard` and `catdoc mcp --dashboard`). The JSON views
 * are exported too: the CLI prints the same shapes with `--format json`.
 */
export { DASHBOARD_HOST, DEFAULT_DASHBOARD_PORT, startDashboard } from "./server.js";
export type { DashboardHandle, DashboardOptions } from "./server.js";
export { buildGraph } from "./graph.js";
export type { GraphCategory, GraphData, GraphEdge, GraphNode, GraphOptions } from "./graph.js";
export { traceView } from "./trace-view.js";
export type { TraceRequest, TraceStep, TraceView } from "./trace-view.js";
export type { ApiErrorBody } from "./server.js";
