/**
 * Security review (issue #8, part 5): mochi-mcp takes no file path from a client — its tools take
 * code and questions, its resources catalog names — and what it serves comes from the catalog
 * alone. Checked here: no tool input is a path; resource names that look like paths (`..`,
 * absolute, encoded) are NOT_FOUND and read nothing; and indexing a repository does not follow a
 * symlink to a file or a folder outside it, so nothing outside can reach the catalog it serves.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectInProcess, type InProcessConnection } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walkRepository } from "../src/domain/files/repo-walker.js";
import type { MochiRuntime } from "../src/runtime.js";
import { createMochiServer } from "../src/server.js";
import { copyFixtureRepo, indexInto } from "./helpers/sample-repo.js";
import { startRuntime } from "./helpers/tiny-model.js";

const SECRET = "outsideSecretFunction";
let repo: string;
let outside: string;
let runtime: MochiRuntime;
let connection: InProcessConnection;

beforeAll(async () => {
  outside = mkdtempSync(join(tmpdir(), "mochi-outside-"));
  mkdirSync(join(outside, "lib"));
  writeFileSync(join(outside, "secret.ts"), `export function ${SECRET}(): string {\n  return "hidden";\n}\n`);
  writeFileSync(join(outside, "lib", "more.ts"), `export function ${SECRET}Two(): number {\n  return 2;\n}\n`);
  repo = copyFixtureRepo("mochi-security-");
  symlinkSync(join(outside, "secret.ts"), join(repo, "src", "linked-secret.ts"));
  symlinkSync(join(outside, "lib"), join(repo, "src", "linked-lib"));
  await indexInto(repo);
  runtime = await startRuntime({ MOCHI_MODEL: "" }, repo);
  connection = await connectInProcess(createMochiServer(runtime.config, { runtime }));
});

afterAll(async () => {
  await connection?.close();
  await runtime?.dispose();
  rmSync(repo, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("mochi-mcp reads no client path", () => {
  it("has no tool input that names a file or folder", async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      const properties = Object.keys((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {});
      expect(
        properties.filter((p) => /path|file|dir|folder|root|uri/i.test(p)),
        tool.name,
      ).toEqual([]);
    }
  });

  it("answers NOT_FOUND for resource names that look like paths, reading nothing", async () => {
    const passwd = readFileSync("/etc/passwd", "utf8").split("\n")[0] ?? "root:";
    for (const uri of [
      "mochi://examples/..%2F..%2F..%2Fetc%2Fpasswd",
      "mochi://patterns/%2Fetc%2Fpasswd",
      "mochi://conventions/..%2F.mochi%2Fcatalog.json",
      `mochi://examples/${encodeURIComponent(join(outside, "secret.ts"))}`,
    ]) {
      const answer = await connection.client.readResource({ uri }).then(
        (result) => JSON.stringify(result),
        (error: unknown) => String(error),
      );
      expect(answer, uri).toMatch(/not found|No (pattern|convention|example)/i);
      expect(answer).not.toContain(passwd);
      expect(answer).not.toContain(SECRET);
    }
  });
});

describe("indexing stays inside the repository", () => {
  it("does not follow a symlink to a file or a folder outside", () => {
    const { files } = walkRepository(repo);
    expect(files.map((f) => f.path).filter((p) => p.includes("linked"))).toEqual([]);
    expect(readFileSync(join(repo, ".mochi", "catalog.json"), "utf8")).not.toContain(SECRET);
  });

  it("serves nothing from outside through its tools or resources", async () => {
    const { resources } = await connection.client.listResources();
    expect(JSON.stringify(resources)).not.toContain(SECRET);
    const suggested = await connection.client.callTool({ name: "suggest_pattern", arguments: { goal: SECRET, response_level: "full" } });
    expect(JSON.stringify(suggested.structuredContent ?? suggested.content)).not.toMatch(new RegExp(`${SECRET}(Two)?\\(`));
  });
});
