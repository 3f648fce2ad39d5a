/**
 * Defaults the user sees in `--help`: a leaf module (no imports), so the CLI can describe its
 * options without loading the modules that use them.
 */
/** The dashboard's port when neither --port nor config.yaml's dashboard.port gives one. */
export const DEFAULT_DASHBOARD_PORT = 3917;
/** The only address the dashboard listens on. */
export const DASHBOARD_HOST = "127.0.0.1";
/** Search results when no limit is given, and the most a search returns. */
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 1000;
