/**
 * Which call comes next, reproducibly: call k of a run goes to tool k mod n (in tools/list
 * order), and its arguments come from a seed derived from (run seed, server, tool, index) alone,
 * so any single case can be regenerated without replaying the run. The first calls of each tool
 * are valid-looking; after that most are mutated, some stay valid, and a few are the server's
 * golden calls (known-good arguments that reach the tool's real work), half of those mutated —
 * a hostile value deep inside an otherwise good call gets furthest into a tool.
 */
import { seedFrom, seededRandom } from "@local-mcp/core";
import type { Tool } from "@modelcontextprotocol/client";
import fc from "fast-check";
import type { JsonSchema } from "./json-schema.js";
import { mutatedArguments, type MutationContext } from "./mutations.js";
import { validArguments, type FieldHints } from "./schema-arbitrary.js";
import { wireBytes } from "./wire-value.js";

export type CaseMode = "valid" | "mutated" | "golden" | "golden-mutated";

export interface GoldenCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** Runs real, slow work (a solo save through the quality gate): drawn at its own, lower rate. */
  expensive?: boolean;
}

export interface FuzzCase {
  server: string;
  tool: string;
  /** The case's number among this tool's calls. */
  index: number;
  /** The run's seed; with server, tool and index it regenerates the case. */
  seed: number;
  mode: CaseMode;
  arguments: unknown;
}

export interface GeneratorOptions {
  server: string;
  seed: number;
  tools: readonly Tool[];
  hints: FieldHints;
  golden: readonly GoldenCall[];
  /** Share of calls that are cheap golden calls. */
  goldenRate: number;
  /** Share of calls that are expensive golden calls. */
  expensiveRate: number;
  mutation: Omit<MutationContext, "root">;
  /** Last word on arguments before they are sent (keeps a fuzz from asking pip for made-up packages). */
  sanitize?: ((tool: string, args: unknown) => unknown) | undefined;
}

/**
 * Largest request sent. The SDK's stdio transport refuses a message above 10 MiB by closing
 * (STDIO_DEFAULT_MAX_BUFFER_SIZE), and the server then exits: a limit of the transport by design,
 * so the fuzz stays below it. A bigger sample is drawn again from the next seed.
 */
export const MAX_REQUEST_BYTES = 8 * 1_048_576;

/** How many calls of each tool are valid-looking before mutation starts. */
const VALID_FIRST = 3;
/** After that, the share of valid-looking calls among generated ones. */
const VALID_SHARE = 0.15;

export class CaseGenerator {
  private readonly arbitraries = new Map<string, { valid: fc.Arbitrary<unknown>; mutated: fc.Arbitrary<unknown> }>();
  private readonly goldenMutations = new Map<GoldenCall, fc.Arbitrary<unknown>>();

  constructor(private readonly options: GeneratorOptions) {
    if (options.tools.length === 0) throw new Error(`${options.server} lists no tools`);
  }

  private arbitrariesOf(tool: Tool) {
    let found = this.arbitraries.get(tool.name);
    if (!found) {
      const root = tool.inputSchema as JsonSchema;
      const valid = validArguments(root, this.options.hints);
      found = { valid, mutated: mutatedArguments({ ...this.options.mutation, root }, valid) };
      this.arbitraries.set(tool.name, found);
    }
    return found;
  }

  private mutatedGolden(call: GoldenCall): fc.Arbitrary<unknown> | undefined {
    let found = this.goldenMutations.get(call);
    if (!found) {
      const tool = this.options.tools.find((t) => t.name === call.tool);
      if (!tool) return undefined;
      found = mutatedArguments({ ...this.options.mutation, root: tool.inputSchema as JsonSchema }, fc.constant(call.arguments));
      this.goldenMutations.set(call, found);
    }
    return found;
  }

  private sampled(arbitrary: fc.Arbitrary<unknown>, caseSeed: number): unknown {
    let args: unknown;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      [args] = fc.sample(arbitrary, { seed: (caseSeed + attempt) >>> 0, numRuns: 1 });
      if (wireBytes(args) <= MAX_REQUEST_BYTES) break;
    }
    return args;
  }

  /** The k-th call of the run. */
  caseAt(k: number): FuzzCase {
    const { tools, server, seed } = this.options;
    const tool = tools[k % tools.length] as Tool;
    const index = Math.floor(k / tools.length);
    const caseSeed = seedFrom(`${seed}:${server}:${tool.name}:${index}`);
    const random = seededRandom(caseSeed);
    const draw = random();
    const expensive = this.options.golden.filter((call) => call.expensive);
    const cheap = this.options.golden.filter((call) => !call.expensive);
    let mode: CaseMode;
    let name = tool.name;
    let args: unknown;
    let golden: GoldenCall | undefined;
    if (index >= VALID_FIRST && expensive.length > 0 && draw < this.options.expensiveRate) {
      golden = expensive[Math.floor(random() * expensive.length)];
    } else if (index >= VALID_FIRST && cheap.length > 0 && draw < this.options.expensiveRate + this.options.goldenRate) {
      golden = cheap[Math.floor(random() * cheap.length)];
    }
    if (golden) {
      name = golden.tool;
      const mutation = random() < 0.5 ? this.mutatedGolden(golden) : undefined;
      mode = mutation ? "golden-mutated" : "golden";
      args = mutation ? this.sampled(mutation, caseSeed) : golden.arguments;
    } else {
      mode = index < VALID_FIRST || random() < VALID_SHARE ? "valid" : "mutated";
      const arbitraries = this.arbitrariesOf(tool);
      args = this.sampled(mode === "valid" ? arbitraries.valid : arbitraries.mutated, caseSeed);
    }
    const sanitized = this.options.sanitize ? this.options.sanitize(name, args) : args;
    return { server, tool: name, index, seed, mode, arguments: sanitized };
  }
}
