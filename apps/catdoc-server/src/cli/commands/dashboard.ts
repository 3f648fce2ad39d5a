/** `catdoc dashboard`: the web dashboard and its REST API on 127.0.0.1 until Ctrl+C. */
import { DASHBOARD_HOST, DEFAULT_DASHBOARD_PORT } from "../../defaults.js";
import { InvalidArgumentError } from "commander";
import { portNumber } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface DashboardOptions {
  port?: number;
  open?: boolean;
}

/** A port; `-p` here is the original CatDoc's --port, so a project path given to it is answered with --project. */
function dashboardPort(value: string): number {
  try {
    return portNumber(value);
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    throw new InvalidArgumentError(
      `${error.message} In \`catdoc dashboard\`, -p is --port (as in the original CatDoc): give the project with --project <path>.`,
    );
  }
}

export function registerDashboardCommand({ program, action, setup }: CommandRegistry): void {
  program
    .command("dashboard")
    .description("serve the web dashboard (graph, validation, trace) and its read-only REST API on 127.0.0.1")
    .option(
      "-p, --port <port>",
      `TCP port on 127.0.0.1 (default: dashboard.port of .catdoc/config.yaml, else ${DEFAULT_DASHBOARD_PORT}; 0 picks a free one); here -p is --port, the project is --project <path>`,
      dashboardPort,
    )
    .option("-o, --open", "open the dashboard in the default browser once it listens")
    .addHelpText(
      "after",
      "\nThe URL is printed on stderr once the server listens; stop it with Ctrl+C (SIGINT) or SIGTERM.\n" +
        "Only requests whose Host (and Origin, when sent) is this loopback address are answered.\n" +
        "API: /api/health, /api/objects[/<id>], /api/morphisms[/<id>], /api/categories[/<id>], /api/functors[/<id>],\n" +
        "/api/natural-transformations[/<id>], /api/graph?category=, /api/validate, /api/trace?source=&target=",
    )
    .action(
      action(async (context, options: DashboardOptions) => {
        // Read the project first: a missing or malformed project fails here, not in the browser.
        const project = await context.load();
        const configured = project.config.dashboard;
        if (configured?.host !== undefined && !["127.0.0.1", "localhost"].includes(configured.host)) {
          context.note(
            `catdoc: ignoring dashboard.host '${configured.host}' from config.yaml: the dashboard listens on ${DASHBOARD_HOST} only.`,
          );
        }
        const port = options.port ?? configured?.port ?? DEFAULT_DASHBOARD_PORT;
        const [{ createLogger }, { startDashboard }, store] = await Promise.all([
          import("@local-mcp/core"),
          import("../../dashboard/server.js"),
          context.store(),
        ]);
        const logger = createLogger({ name: "catdoc-dashboard", level: "warn", write: (line) => void setup.io.stderr.write(line) });
        const dashboard = await startDashboard({ store, port, logger });
        context.note(`CatDoc dashboard listening on ${dashboard.url} (project ${context.root})`);
        if (options.open === true) {
          // A browser that cannot be started is reported, not fatal: the dashboard still serves.
          const opened = setup.openUrl === undefined ? Promise.reject(new Error("no browser here")) : setup.openUrl(dashboard.url);
          await opened.catch((error: unknown) =>
            context.note(
              `catdoc: could not open a browser (${error instanceof Error ? error.message : String(error)}): open ${dashboard.url}`,
            ),
          );
        }
        context.note("Press Ctrl+C to stop.");
        const signal = await setup.waitForStop();
        await dashboard.close();
        context.note(`Dashboard stopped (${signal}).`);
      }),
    );
}
