/** The dashboard's default port, in a module of its own so `solo-assets --help` can show it without loading the dashboard. */
export const DEFAULT_DASHBOARD_PORT = 3918;
