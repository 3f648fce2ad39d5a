import type { Client } from "@modelcontextprotocol/client";

/** One cheap call of a tool, and what it must answer. */
export interface ToolCase {
  args: Record<string, unknown>;
  /**
   * The coded ToolError the call must answer (e.g. NOT_READY for a tool that needs a model the
   * test does not load); absent, the call must succeed with structuredContent.
   */
  expectError?: string;
}

export interface ToolOutcome {
  name: string;
  structuredContent: Record<string, unknown>;
  /** The error code when the tool answered a coded error (then it was the expected one). */
  errorCode?: string;
}

function errorCodeOf(structured: Record<string, unknown>): string | undefined {
  const error = structured["error"];
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as Record<string, unknown>)["code"];
  return typeof code === "string" ? code : undefined;
}

/**
 * Lists the server's tools and calls each once with its case: throws unless the cases name exactly
 * the listed tools (a new tool without a case fails) and every call answers as its case says
 * (structuredContent always; a coded error only where `expectError` names that code).
 */
export async function callEveryTool(
  client: Client,
  cases: Readonly<Record<string, ToolCase>>,
  options: { timeout?: number } = {},
): Promise<ToolOutcome[]> {
  const listed = (await client.listTools()).tools.map((tool) => tool.name);
  const missing = listed.filter((name) => !(name in cases));
  const unlisted = Object.keys(cases).filter((name) => !listed.includes(name));
  if (missing.length > 0 || unlisted.length > 0) {
    throw new Error(`tool cases do not match tools/list: no case for [${missing.join(", ")}], cases for unlisted [${unlisted.join(", ")}]`);
  }
  const outcomes: ToolOutcome[] = [];
  for (const name of listed) {
    const toolCase = cases[name] as ToolCase;
    const result = await client.callTool({ name, arguments: toolCase.args }, { timeout: options.timeout ?? 60_000 });
    if (typeof result.structuredContent !== "object" || result.structuredContent === null) {
      throw new Error(`${name} answered no structuredContent: ${JSON.stringify(result).slice(0, 500)}`);
    }
    const structured = result.structuredContent as Record<string, unknown>;
    const code = result.isError === true ? errorCodeOf(structured) : undefined;
    if (toolCase.expectError === undefined && result.isError === true) {
      throw new Error(`${name} failed: ${JSON.stringify(structured).slice(0, 500)}`);
    }
    if (toolCase.expectError !== undefined && code !== toolCase.expectError) {
      throw new Error(
        `${name} answered ${code ?? "no error"} instead of ${toolCase.expectError}: ${JSON.stringify(structured).slice(0, 500)}`,
      );
    }
    outcomes.push({ name, structuredContent: structured, ...(code === undefined ? {} : { errorCode: code }) });
  }
  return outcomes;
}

/**
 * Reads every resource resources/list names (all pages); throws unless each read answers at least
 * one content for that URI with text or a blob. Returns the URIs read, in list order.
 */
export async function readEveryResource(client: Client): Promise<string[]> {
  const { resources } = await client.listResources();
  for (const { uri } of resources) {
    const { contents } = await client.readResource({ uri });
    const first = contents[0];
    if (first === undefined) throw new Error(`${uri} read answered no contents`);
    if (first.uri !== uri) throw new Error(`${uri} read answered contents for ${first.uri}`);
    if (
      !contents.every(
        (content) => ("text" in content && typeof content.text === "string") || ("blob" in content && typeof content.blob === "string"),
      )
    ) {
      throw new Error(`${uri} read answered a content with neither text nor blob`);
    }
  }
  return resources.map((resource) => resource.uri);
}
