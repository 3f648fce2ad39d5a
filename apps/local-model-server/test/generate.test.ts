import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFor, connect, dataOf, errorOf, tempDir, type Connected } from "./helpers.js";

let server: Connected;
let root: Awaited<ReturnType<typeof tempDir>>;
let state: Awaited<ReturnType<typeof tempDir>>;

const PLAN_VARIABLES = {
  phase: "01-data-foundation",
  plan: "01",
  wave: 1,
  depends_on: [],
  files_modified: ["src/types/user.ts", "src/utils/mockData.ts"],
  autonomous: true,
  must_haves: {
    truths: ["Family members load from mock data"],
    artifacts: [{ path: "src/stores/familyStore.ts", provides: "Family store", exports: ["useFamilyStore"] }],
    key_links: [],
  },
  objective: "Herman family mock data.",
  purpose: "Later phases read family members from one store.",
  output: "User types and mock data.",
  tasks: [
    {
      name: "Update FamilyMember type",
      files: ["src/types/user.ts"],
      action: "Add relationship fields.",
      verify: "tsc --noEmit",
      done: "Type has relationship",
    },
    {
      name: "Replace mock data",
      files: ["src/utils/mockData.ts"],
      action: "Herman family.",
      verify: "unit test",
      done: "Mock data typed",
      type: "tdd",
    },
  ],
  verification: ["npm run build succeeds"],
};

/** The seed's own local_generate example. */
const SEED_SUMMARY = {
  task_type: "summary",
  template: "summary",
  variables: {
    phase: "01-data-foundation",
    plan: "01",
    plan_name: "Herman Family Mock Data",
    tasks: [
      { name: "Update FamilyMember type", commit: "e012012", status: "complete" },
      { name: "Replace mock data", commit: "596c479", status: "complete" },
      { name: "Create relationship utility", commit: "51d5a62", status: "complete" },
    ],
    files_modified: ["src/types/user.ts", "src/utils/mockData.ts", "src/utils/relationships.ts"],
    deviations: "none",
    next_plan: "01-02",
    completed: "2025-01-15",
  },
  output_path: ".planning/phases/01-data-foundation/01-01-SUMMARY.md",
};

beforeAll(async () => {
  root = await tempDir("local-model-gen-");
  state = await tempDir();
  server = await connect(configFor({ LOCAL_MODEL_ROOTS: root.path, LOCAL_MODEL_STATE_DIR: state.path }));
});
afterAll(async () => {
  await server.close();
  await root.remove();
  await state.remove();
});

async function frontmatterOf(path: string) {
  const { body } = await server.call("local_extract", { task_type: "frontmatter", files: [path] });
  return (dataOf(body).results as Record<string, { data: Record<string, unknown> }>)[path]?.data;
}

describe("local_generate with the shipped GSD templates", () => {
  it("writes a PLAN whose frontmatter parses back to the GSD fields", async () => {
    const path = ".planning/phases/01-data-foundation/01-01-PLAN.md";
    const { isError, body } = await server.call("local_generate", { task_type: "plan", variables: PLAN_VARIABLES, output_path: path });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ success: true, engine: "deterministic" });
    expect(dataOf(body)).toEqual({ written: true, path });
    expect(await frontmatterOf(path)).toEqual({
      phase: "01-data-foundation",
      plan: "01",
      type: "execute",
      wave: 1,
      depends_on: [],
      files_modified: ["src/types/user.ts", "src/utils/mockData.ts"],
      autonomous: true,
      must_haves: PLAN_VARIABLES.must_haves,
    });
    const text = await readFile(join(root.path, path), "utf8");
    expect(text).toContain(
      [
        '<task type="auto">',
        "  <name>Task 1: Update FamilyMember type</name>",
        "  <files>src/types/user.ts</files>",
        "  <action>Add relationship fields.</action>",
        "  <verify>tsc --noEmit</verify>",
        "  <done>Type has relationship</done>",
        "</task>",
        "",
        '<task type="tdd">',
        "  <name>Task 2: Replace mock data</name>",
      ].join("\n"),
    );
    expect(text).toContain(
      "<objective>\nHerman family mock data.\n\nPurpose: Later phases read family members from one store.\nOutput: User types and mock data.\n</objective>",
    );
    expect(text).toContain("- [ ] npm run build succeeds");
    expect(text).toContain("After completion, create `.planning/phases/01-data-foundation/01-01-SUMMARY.md`");
    const structure = await server.call("local_extract", { task_type: "structure", files: [path], extract: { format: "list" } });
    expect((dataOf(structure.body).results as Record<string, { data: string[] }>)[path]?.data).toEqual([
      "block objective",
      "block execution_context",
      "block context",
      "block tasks",
      "  block task (auto): Task 1: Update FamilyMember type",
      "  block task (tdd): Task 2: Replace mock data",
      "block verification",
      "block success_criteria",
      "block output",
    ]);
  });

  it("renders the seed's SUMMARY example with every GSD SUMMARY frontmatter field", async () => {
    const { body } = await server.call("local_generate", { ...SEED_SUMMARY, response_level: "standard" });
    expect(body.success).toBe(true);
    const data = dataOf(body);
    expect(data).toMatchObject({ written: true, path: SEED_SUMMARY.output_path, template: "summary" });
    const frontmatter = await frontmatterOf(SEED_SUMMARY.output_path);
    expect(Object.keys(frontmatter ?? {})).toEqual([
      "phase",
      "plan",
      "subsystem",
      "tags",
      "requires",
      "provides",
      "affects",
      "tech-stack",
      "key-files",
      "key-decisions",
      "patterns-established",
      "duration",
      "completed",
    ]);
    expect(frontmatter).toMatchObject({
      phase: "01-data-foundation",
      plan: "01",
      "tech-stack": { added: [], patterns: [] },
      completed: "2025-01-15",
    });
    const content = data.content as string;
    expect(content).toContain("# Phase 01 Plan 01: Herman Family Mock Data Summary");
    expect(content).toContain(
      [
        "1. **Task 1: Update FamilyMember type** - `e012012`",
        "2. **Task 2: Replace mock data** - `596c479`",
        "3. **Task 3: Create relationship utility** - `51d5a62`",
      ].join("\n"),
    );
    expect(content).toContain("- **Tasks:** 3\n- **Files modified:** 3");
    expect(content).toContain("Next plan: 01-02");
    expect(await readFile(join(root.path, SEED_SUMMARY.output_path), "utf8")).toBe(content);
  });

  it("renders STATE.md with the GSD sections and a progress bar", async () => {
    const { body } = await server.call("local_generate", {
      task_type: "state_update",
      variables: {
        current_phase: 1,
        total_phases: 4,
        phase_name: "Data foundation",
        current_plan: 2,
        total_plans: 3,
        status: "In progress",
        last_activity: "2025-01-15 — completed 01-01",
        progress: 30,
        decisions: ["[Phase 1]: Zustand over Redux"],
      },
      output_path: ".planning/STATE.md",
    });
    expect(body.success).toBe(true);
    const outline = await server.call("local_extract", {
      task_type: "structure",
      files: [".planning/STATE.md"],
      extract: { format: "list" },
    });
    expect((dataOf(outline.body).results as Record<string, { data: string[] }>)[".planning/STATE.md"]?.data).toEqual([
      "# Project State",
      "## Project Reference",
      "## Current Position",
      "## Performance Metrics",
      "## Accumulated Context",
      "### Decisions",
      "### Pending Todos",
      "### Blockers/Concerns",
      "## Session Continuity",
    ]);
    const text = await readFile(join(root.path, ".planning/STATE.md"), "utf8");
    expect(text).toContain("Phase: 1 of 4 (Data foundation)\nPlan: 2 of 3 in current phase\nStatus: In progress");
    expect(text).toContain("Progress: [███░░░░░░░] 30%");
    expect(text).toContain("- [Phase 1]: Zustand over Redux");
    expect(text).toContain("### Pending Todos\n\nNone yet.");
  });

  it("renders VERIFICATION.md with its frontmatter and truth table", async () => {
    const path = ".planning/phases/01-data-foundation/01-VERIFICATION.md";
    const { body } = await server.call("local_generate", {
      task_type: "verification",
      variables: {
        phase: "01-data-foundation",
        phase_name: "Data foundation",
        verified: "2025-01-15T14:30:00Z",
        status: "gaps_found",
        score: "1/2 must-haves verified",
        truths: [
          { truth: "Family members load", status: "✓ VERIFIED", evidence: "line 10: export const useFamilyStore" },
          { truth: "Feed shows posts", status: "✗ FAILED", evidence: "not found" },
        ],
        automated_passed: 1,
        automated_failed: 1,
      },
      output_path: path,
    });
    expect(body.success).toBe(true);
    expect(await frontmatterOf(path)).toEqual({
      phase: "01-data-foundation",
      verified: "2025-01-15T14:30:00Z",
      status: "gaps_found",
      score: "1/2 must-haves verified",
    });
    const text = await readFile(join(root.path, path), "utf8");
    expect(text).toContain(
      "| 1 | Family members load | ✓ VERIFIED | line 10: export const useFamilyStore |\n| 2 | Feed shows posts | ✗ FAILED | not found |",
    );
    expect(text).toContain("**Automated checks:** 1 passed, 1 failed");
  });
});

describe("local_generate strictness", () => {
  it("names a missing required variable instead of leaving a hole", async () => {
    const { tasks: _tasks, ...withoutTasks } = PLAN_VARIABLES;
    const { isError, body } = await server.call("local_generate", { task_type: "plan", variables: withoutTasks });
    expect(isError).toBe(true);
    expect(errorOf(body)).toMatchObject({
      code: "INVALID_INPUT",
      message: "Template 'plan' needs variable 'tasks', which the call did not give.",
    });
  });

  it("names a missing variable inside a list item, with its template line", async () => {
    const tasks = [{ name: "No action", files: [], verify: "v", done: "d" }];
    const { body } = await server.call("local_generate", { task_type: "plan", variables: { ...PLAN_VARIABLES, tasks } });
    expect(errorOf(body).code).toBe("INVALID_INPUT");
    expect(errorOf(body).message).toMatch(/^Template 'plan' needs variable 'action' \(template line \d+\), which the call did not give\.$/);
    expect(errorOf(body).details).toMatchObject({ missing: ["action"] });
  });

  it("fills inline templates strictly and reports syntax errors", async () => {
    const ok = await server.call("local_generate", {
      template: "Hello {{name}}: {{json items}}",
      variables: { name: "Ada", items: [1, "two"] },
    });
    expect(dataOf(ok.body)).toEqual({ written: false, content: 'Hello Ada: [1,"two"]' });
    const missing = await server.call("local_generate", { template: "Hello {{user.name}}", variables: { user: {} } });
    expect(errorOf(missing.body).message).toBe(
      "Template 'inline' needs variable 'user.name' (template line 1), which the call did not give.",
    );
    const broken = await server.call("local_generate", { template: "{{#each items}}x", variables: {} });
    expect(errorOf(broken.body).code).toBe("INVALID_INPUT");
    expect(errorOf(broken.body).message).toMatch(/^The template does not parse/);
  });

  it("says which templates exist when the name is unknown", async () => {
    const { body } = await server.call("local_generate", { template: "nope", variables: {} });
    expect(errorOf(body)).toMatchObject({
      code: "NOT_FOUND",
      message: "No template named 'nope'. Templates: plan, state, summary, verification.",
    });
  });

  it("leaves content out of minimal responses when it wrote a file, and no temporary files behind", async () => {
    const [minimal, standard] = await Promise.all(
      (["minimal", "standard"] as const).map(
        async (level) =>
          (
            await server.call("local_generate", {
              template: "x={{x}}\n",
              variables: { x: level },
              output_path: `out/${level}.txt`,
              response_level: level,
            })
          ).body,
      ),
    );
    expect(dataOf(minimal ?? {})).toEqual({ written: true, path: "out/minimal.txt" });
    expect(dataOf(standard ?? {})).toEqual({
      written: true,
      path: "out/standard.txt",
      content: "x=standard\n",
      template: "inline",
      bytes: 11,
      lines: 1,
    });
    expect(await readFile(join(root.path, "out/minimal.txt"), "utf8")).toBe("x=minimal\n");
    expect((await readdir(join(root.path, "out"))).sort()).toEqual(["minimal.txt", "standard.txt"]);
  });
});

describe("custom templates", () => {
  it("uses a templates_dir whose templates shadow shipped ones", async () => {
    const dir = await tempDir("local-model-templates-");
    await writeFile(join(dir.path, "summary.md.hbs"), "{{!--\ndescription: team summary\nrequired: [phase]\n--}}\nSummary of {{phase}}\n");
    await writeFile(join(dir.path, "note.hbs"), "Note: {{text}}\n");
    const custom = await connect(
      configFor({ LOCAL_MODEL_ROOTS: root.path, LOCAL_MODEL_STATE_DIR: state.path, LOCAL_MODEL_TEMPLATES_DIR: dir.path }),
    );
    try {
      const summary = await custom.call("local_generate", { template: "summary", variables: { phase: "02" }, response_level: "full" });
      expect(dataOf(summary.body)).toMatchObject({ content: "Summary of 02\n", template_source: "custom" });
      const note = await custom.call("local_generate", { template: "note", variables: { text: "hi" } });
      expect(dataOf(note.body)).toEqual({ written: false, content: "Note: hi\n" });
    } finally {
      await custom.close();
      await dir.remove();
    }
  });
});
