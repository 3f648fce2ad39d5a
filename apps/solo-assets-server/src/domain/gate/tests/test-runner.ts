/**
 * The gate's third step: the function's test cases, run in its pooled environment inside the
 * sandbox. Four failures are told apart — the environment could not be installed, the run
 * timed out, the code does not parse, a test failed (with the traceback) — and a run that was
 * skipped or had no tests leaves the function `unverified`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@local-mcp/core";
import type { Logger } from "@local-mcp/core";
import { z } from "zod";
import { runProcess, tail } from "../../process/run-process.js";
import type { TestCase } from "../../library/function-record.js";
import type { TestOutcome, TestReport } from "../gate-report.js";
import { EnvironmentInstallError, ToolchainUnavailableError } from "./environment-pool.js";
import type { EnvironmentPool } from "./environment-pool.js";
import { HARNESS_FILE, HARNESS_SOURCE, PLANNER_SOURCE } from "./harness-source.js";
import { writeLibraryPackage } from "./library-package.js";
import { SandboxUnavailableError } from "./sandbox.js";
import type { Sandbox } from "./sandbox.js";
import { AssertPlanSchema, judgeCases, parseHarnessOutput, planCases } from "./test-verdict.js";
import type { AssertPlan } from "./test-verdict.js";

export interface TestRunInput {
  name: string;
  code: string;
  dependencies: readonly string[];
  cases: readonly TestCase[];
  skip: boolean;
  /** Library functions the code imports (`from solo_lib import …`), dependencies first. */
  library?: readonly { name: string; code: string }[];
}

/** Where the `solo_lib` package lies in the run's inputs (the harness puts it on sys.path). */
const LIBRARY_DIR = "lib";

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
    if (input.skip) {
      return report("skipped", "skipped", "Tests skipped on request (skip_tests); the function is stored as unverified.", {
        issue: { code: "TESTS_SKIPPED", suggestion: "Save again with test cases and without skip_tests to verify it." },
      });
    }
    if (input.cases.length === 0) {
      return report(
        "no_tests",
        "skipped",
        "No test cases were given, so the function is stored as unverified; add test_cases to verify it.",
        {
          issue: { code: "NO_TESTS", suggestion: 'Save again with test_cases, e.g. [{"input": {"x": 1}, "expected": 2}].' },
        },
      );
    }

    let environment;
    try {
      environment = await this.pool.acquire(input.dependencies, context);
    } catch (error) {
      if (error instanceof ToolchainUnavailableError) {
        return report("error", "error", `Tests NOT run: ${error.message}`, {
          tool: "python",
          issue: { code: error.code, suggestion: error.suggestion },
        });
      }
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
    const scratch = await mkdtemp(join(tmpdir(), "solo-test-tmp-"));
    try {
      // Assert statements are split outside the sandbox: their literal sides never enter it.
      const statements = input.cases.filter((c): c is string => typeof c === "string");
      const assertPlans = statements.length > 0 ? await planAsserts(environment.python, statements, context.signal) : [];
      const { probes, plans } = planCases(input.name, input.cases, assertPlans);
      const limits = await this.sandbox.harnessLimits();
      await writeFile(join(workDir, "function.py"), input.code);
      await writeFile(join(workDir, HARNESS_FILE), HARNESS_SOURCE);
      const library = input.library ?? [];
      if (library.length > 0) await writeLibraryPackage(join(workDir, LIBRARY_DIR), library);
      await writeFile(
        join(workDir, "spec.json"),
        JSON.stringify({
          name: input.name,
          probes,
          ...(limits ? { limits } : {}),
          ...(library.length > 0 ? { library: LIBRARY_DIR } : {}),
        }),
      );
      context.progress?.(`running ${input.cases.length} test case(s)`);
      let run;
      try {
        run = await this.sandbox.run(environment.python, ["-I", "-B", HARNESS_FILE], {
          workDir,
          tmpDir: scratch,
          venvDir: environment.dir,
          signal: context.signal,
        });
      } catch (error) {
        if (!(error instanceof SandboxUnavailableError)) throw error;
        return report("sandbox_unavailable", "error", `Tests NOT run: no sandbox. ${error.message}`, {
          environment: envInfo,
          tool: "sandbox",
          issue: {
            code: "SANDBOX_UNAVAILABLE",
            suggestion:
              "Install bubblewrap (apt install bubblewrap), or set SOLO_SANDBOX=weak to accept the weaker fallback (docs/solo-assets.md, the sandbox).",
          },
        });
      }
      if (run.aborted) throw context.signal.reason;
      const sandbox = {
        kind: run.kind,
        network_isolated: run.networkIsolated,
        limits: run.limits,
        memory_mb: this.sandbox.options.memoryMb,
        max_processes: this.sandbox.options.maxProcesses,
        timeout_ms: this.sandbox.options.timeoutMs,
      };
      const tool = `python ${environment.python}`;
      const output = parseHarnessOutput(run.stdout, probes.length, run.stdout.length >= 4 * 1024 * 1024);
      const cases = output.load?.status === "ok" || output.tampered ? judgeCases(plans, output) : [];
      const common = { environment: envInfo, sandbox, cases, tool };
      const memory = run.oomKilled
        ? ` The memory limit of ${sandbox.memory_mb} MB for the whole run was exceeded: the kernel killed a process of the run.`
        : "";
      const failedCases = () => {
        const failed = cases.filter((c) => !c.passed);
        const first = failed[0];
        return report(
          "test_failed",
          "failed",
          `${failed.length} of ${cases.length} test case(s) failed${first ? `; first: ${first.label}` : ""}.${memory}`,
          {
            ...common,
            ...(first?.error ? { traceback: first.error } : {}),
          },
        );
      };
      if (output.tampered) return failedCases();
      // The CPU limit (prlimit --cpu) ends a busy loop with SIGXCPU or SIGKILL: a timeout too.
      if (run.timedOut || run.signal === "SIGXCPU") {
        return report(
          "timeout",
          "failed",
          `The tests did not finish within ${this.sandbox.options.timeoutMs} ms; the whole sandbox was killed. Look for an endless loop or a blocking call.`,
          { ...common, traceback: tail(run.stderr, 2000) || undefined },
        );
      }
      const ended = run.signal ? `was killed by ${run.signal}` : run.code !== 0 ? `exited with code ${String(run.code)}` : "";
      if (!output.load) {
        return report(
          "test_failed",
          "failed",
          `The test process ${ended || "ended"} before reporting (a crash, the ${sandbox.memory_mb} MB memory limit or the limit of ${sandbox.max_processes} processes).${memory}`,
          {
            ...common,
            traceback: tail(`${run.stderr}${run.spawnError ? `\n${run.spawnError}` : ""}`, 4000),
          },
        );
      }
      if (output.load.status === "syntax_error")
        return report("syntax_error", "failed", "The code does not parse.", { ...common, traceback: output.load.error });
      if (output.load.status === "load_error") {
        return report("test_failed", "failed", "The code failed while being loaded (an import or a top-level statement raised).", {
          ...common,
          traceback: output.load.error,
        });
      }
      if (cases.some((c) => !c.passed)) return failedCases();
      if (ended || run.oomKilled) {
        // Every case passed, but the run did not end cleanly: not a pass.
        return report(
          "test_failed",
          "failed",
          `Every case returned, but the test process ${ended || "lost a process to the memory limit"}.${memory}`,
          {
            ...common,
            traceback: tail(run.stderr, 4000) || undefined,
          },
        );
      }
      return report("passed", "passed", `All ${cases.length} test case(s) passed.`, common);
    } finally {
      for (const folder of [workDir, scratch]) {
        await rm(folder, { recursive: true, force: true }).catch((error: unknown) =>
          this.logger.warn("could not remove a test folder", { folder, error }),
        );
      }
    }
  }
}

/** Splits assert statements with the environment's interpreter, outside the sandbox (no user code runs). */
async function planAsserts(python: string, statements: readonly string[], signal: AbortSignal): Promise<AssertPlan[]> {
  const result = await runProcess(python, ["-I", "-S", "-c", PLANNER_SOURCE], {
    env: { PATH: "/usr/bin:/bin", PYTHONIOENCODING: "utf-8" },
    input: JSON.stringify(statements),
    timeoutMs: 30_000,
    signal,
  });
  if (result.aborted) throw signal.reason;
  const parsed = z.array(AssertPlanSchema).safeParse(
    (() => {
      try {
        return JSON.parse(result.stdout) as unknown;
      } catch {
        return undefined;
      }
    })(),
  );
  if (!parsed.success || parsed.data.length !== statements.length) {
    throw new Error(`Could not read the assert statements (${tail(result.stderr || result.spawnError || "no output", 500)}).`);
  }
  return parsed.data;
}
