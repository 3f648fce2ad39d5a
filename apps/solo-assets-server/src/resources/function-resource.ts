/**
 * `solo://functions/{name}`: a function of the library as Markdown — its signature, description,
 * status, version, tags and dependencies, then its stored source in a Python block. The current
 * version is served whatever its status (the page says which; `resources/list` lists only the
 * `active` ones, those that passed the quality gate). The bytes stay the same until the next save
 * or delete of that name, so core's change notifications announce exactly those
 * (`notifications/resources/updated`; a function that starts or stops being active changes the
 * list). A source above the response budget is served in parts by core.
 *
 * Nothing here loads the library: listing and reads reach it through the host's services, built
 * (with DuckDB) by the first one, as the tools do.
 */
import { ToolError, defineResourceTemplate } from "@local-mcp/core";
import type { ResourceTemplateDefinition } from "@local-mcp/core";
import type { FunctionStatus } from "../domain/gate/gate-report.js";
import type { FunctionRecord } from "../domain/library/function-record.js";
import type { SoloServerServices } from "../server.js";

export const FUNCTION_URI_PREFIX = "solo://functions/";
/** Most functions resources/list names (the most recently saved, then sorted by name). */
const MAX_LISTED = 5_000;
/** Most candidates one completion reads from the library. */
const MAX_COMPLETION_CANDIDATES = 1_000;

export function functionUri(name: string): string {
  return `${FUNCTION_URI_PREFIX}${encodeURIComponent(name)}`;
}

const STATUS_LINES: Record<FunctionStatus, string> = {
  active: "active — passed the quality gate",
  broken: "broken — the quality gate rejected this version (get_function_history says why)",
  unverified: "unverified — stored without its tests run",
};

/** The page of one function: the same record gives the same bytes. */
export function renderFunction(record: FunctionRecord): string {
  const list = (items: readonly string[]) => (items.length > 0 ? items.map((item) => `\`${item}\``).join(", ") : "none");
  return [
    `# ${record.name}`,
    "",
    "```python",
    record.signature,
    "```",
    "",
    record.description,
    "",
    `- status: ${STATUS_LINES[record.status]}`,
    `- version: ${record.version} (saved ${record.updatedAt})`,
    `- tags: ${list(record.tags)}`,
    `- dependencies: ${list(record.dependencies)}`,
    "",
    "## Source",
    "",
    "```python",
    record.code.replace(/\n+$/, ""),
    "```",
    "",
  ].join("\n");
}

function notFound(name: string, why: string): ToolError {
  return new ToolError("NOT_FOUND", `No function '${name}' in the library${why}.`, {
    suggestion: "List the resources, or find a function with the search_functions tool.",
  });
}

export function functionResource(host: SoloServerServices): ResourceTemplateDefinition {
  const library = async () => (await host.services()).library;
  return defineResourceTemplate({
    uriTemplate: `${FUNCTION_URI_PREFIX}{name}`,
    name: "function",
    title: "Library function",
    description: "A function of the solo-assets library: signature, description, status, version and its full Python source (Markdown).",
    mimeType: "text/markdown",
    oversize: { suggestion: (_uri, { name = "" }) => `Read the parts in order, or call get_function with name '${name}'.` },
    list: async () => {
      const { functions } = await (await library()).list({ statuses: ["active"] }, { limit: MAX_LISTED, offset: 0 });
      // By name, so a new version of one function leaves the list's bytes as they were.
      return functions
        .map((f) => ({ uri: functionUri(f.name), name: f.name, title: f.signature, description: f.description }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    complete: {
      name: async (value) => {
        const { functions } = await (
          await library()
        ).list({ statuses: ["active"], ...(value ? { text: value } : {}) }, { limit: MAX_COMPLETION_CANDIDATES, offset: 0 });
        const lower = value.toLowerCase();
        return functions
          .map((f) => f.name)
          .filter((name) => name.toLowerCase().startsWith(lower))
          .sort();
      },
    },
    read: async ({ name = "" }) => {
      let current: FunctionRecord | undefined;
      try {
        ({ current } = await (await library()).get(name, undefined));
      } catch (error) {
        // A name that is not a Python identifier names no function.
        if (error instanceof ToolError && error.code === "INVALID_INPUT") throw notFound(name, " (not a Python function name)");
        throw error;
      }
      if (!current) throw notFound(name, "");
      return { text: renderFunction(current) };
    },
  });
}
