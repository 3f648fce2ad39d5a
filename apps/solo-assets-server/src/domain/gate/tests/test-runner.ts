/**
 * The gate's third step: the function's test cases, run in its pooled environment inside the
 * sandbox. Four failures are told apart — the environment could not be installed, the run
 * timed out, the code does not parse, a test failed (with the traceback) — and a run that was
 * skipped or had no tests leaves the function `unverified`.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import { tail } from "../../process/run-process.js";
import type { TestCase } from "../../library/function-record.js";
import type { TestCaseResult, TestOutcome, TestReport } from "../gate-report.js";
import { EnvironmentInstallError } from "./environment-pool.js";
import type { EnvironmentPool } from "./environment-pool.js";
import { HARNESS_FILE, HARNESS_SOURCE } from "./harness-source.js";
import type { Sandbox } from "./sandbox.js";

export interface TestRunInput {
  name: string;
  code: string;
  dependencies: readonly string[];
  cases: readonly TestCase[];
  skip: boolean;
}

interface HarnessResult {
  outcome: "passed" | "test_failed" | "syntax_error" | "load_error";
  cases: TestCaseResult[];
  error?: string;
}

export interface TestRunContext {
  signal: AbortSignal;
  progress?: (message: string) => void;
}

export class PythonTestRunner {
  private readonly logger: Logger;

  constructor(
    private readonly pool: EnvironmentPool,
    private readonly sandbox: Sandbox,
    logger?: Logger,
  ) {
    this.logger = logger ?? silentLogger;
  }

  async run(input: TestRunInput, context: TestRunContext): Promise<TestReport> {
    const started = Date.now();
    const report = (outcome: TestOutcome, status: TestReport["status"], summary: string, extra: Partial<TestReport> = {}): TestReport => ({
      step: "test",
      status,
      tool: "python",
      duration_ms: Date.now() - started,
      summary,
      outcome,
      cases: [],
      ...extra,
    });
    if (input.skip) return report("skipped", "skipped", "Tests skipped on request (skip_tests); the function is stored as unverified.");
    if (input.cases.length === 0) {
      return report("no_tests", "skipped", "No test cases were given, so the function is stored as unverified; add test_cases to verify it.");
    }

    let environment;
    try {
      environment = await this.pool.acquire(input.dependencies, context);
    } catch (error) {
      if (!(error instanceof EnvironmentInstallError)) throw error;
      return report("install_failed", "failed", `${error.message} Check the names and versions in dependencies.`, {
        traceback: error.log,
        tool: "environment install",
      });
    }
    const envInfo = {
      hash: environment.hash,
      dependencies: environment.dependencies,
      reused: environment.reused,
      installer: environment.installer,
      install_ms: environment.installMs,
    };
    const workDir = await mkdtemp(join(tmpdir(), "solo-test-"));
    try {
      const limits = await this.sandbox.harnessLimits();
      await writeFile(join(workDir, "function.py"), input.code);
      await writeFile(join(workDir, HARNESS_FILE), HARNESS_SOURCE);
      await writeFile(join(workDir, "spec.json"), JSON.stringify({ name: input.name, cases: input.cases, ...(limits ? { limits } : {}) }));
      context.progress?.(`running ${input.cases.length} test case(s)`);
      const run = await this.sandbox.run(environment.python, ["-I", "-B", HARNESS_FILE], {
        workDir,
        venvDir: environment.dir,
        signal: context.signal,
      });
      if (run.aborted) throw context.signal.reason;
      const sandbox = {
        network_isolated: run.networkIsolated,
        memory_mb: this.sandbox.options.memoryMb,
        timeout_ms: this.sandbox.options.timeoutMs,
      };
      const tool = `python ${environment.python}`;
      const result = await readHarnessResult(join(workDir, "result.json"));
      const cases = (result?.cases ?? []).map((c) => ({ ...c }));
      const common = { environment: envInfo, sandbox, cases, tool };
      // The CPU limit (prlimit --cpu) ends a busy loop with SIGXCPU or SIGKILL: a timeout too.
      if (run.timedOut || run.signal === "SIGXCPU") {
        return report(
          "timeout",
          "failed",
          `The tests did not finish within ${this.sandbox.options.timeoutMs} ms; the whole process group was killed. Look for an endless loop or a blocking call.`,
          { ...common, traceback: tail(run.stderr, 2000) || undefined },
        );
      }
      if (!result) {
        const how = run.signal ? `was killed by ${run.signal}` : `exited with code ${String(run.code)}`;
        return report("test_failed", "failed", `The test process ${how} before reporting (a crash or the ${sandbox.memory_mb} MB memory limit).`, {
          ...common,
          traceback: tail(`${run.stderr}${run.spawnError ? `\n${run.spawnError}` : ""}`, 4000),
        });
      }
      switch (result.outcome) {
        case "passed":
          return report("passed", "passed", `All ${cases.length} test case(s) passed.`, common);
        case "syntax_error":
          return report("syntax_error", "failed", "The code does not parse.", { ...common, traceback: result.error });
        case "load_error":
          return report("test_failed", "failed", "The code failed while being loaded (an import or a top-level statement raised).", {
            ...common,
            traceback: result.error,
          });
        case "test_failed": {
          const failed = cases.filter((c) => !c.passed);
          const first = failed[0];
          return report(
            "test_failed",
            "failed",
            `${failed.length} of ${cases.length} test case(s) failed${first ? `; first: ${first.label}` : ""}.`,
            { ...common, ...(first?.error ? { traceback: first.error } : {}) },
          );
        }
      }
    } finally {
      await rm(workDir, { recursive: true, force: true }).catch((error: unknown) => this.logger.warn("could not remove a test folder", { workDir, error }));
    }
  }
}

async function readHarnessResult(path: string): Promise<HarnessResult | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as HarnessResult;
  } catch {
    return undefined;
  }
}
