/**
 * Security review (issue #8, part 5): solo-assets-mcp takes no file path from a client. A
 * function's name is an identifier (never a path), and its dependencies are plain PyPI
 * requirements: a path, a URL, a pip option, or a name that pip would take for an archive file
 * in its working directory (`x.tar.gz`, `x.whl`) is refused with INVALID_INPUT before anything
 * is installed or stored. (The dashboard's routes take the same identifier; the CLI's `save
 * <file>` reads the file its own user names.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectSolo, tempLibrary } from "./helpers/test-library.js";
import type { SoloConnection, TempLibrary } from "./helpers/test-library.js";

const CODE = 'def double(x: int) -> int:\n    """Twice x."""\n    return 2 * x\n';
let library: TempLibrary;
let solo: SoloConnection;

beforeAll(async () => {
  library = tempLibrary();
  solo = await connectSolo(library.dbPath);
});

afterAll(async () => {
  await solo?.close();
  library?.remove();
});

const errorCode = (answer: { isError: boolean; body: Record<string, unknown> }) => {
  expect(answer.isError, JSON.stringify(answer.body)).toBe(true);
  return (answer.body as { error?: { code?: string } }).error?.code;
};

describe("no client path reaches the file system", () => {
  it("refuses dependencies that are paths, URLs, pip options or archive file names", async () => {
    const bad = [
      "../evil",
      "./evil",
      "/etc/passwd",
      "~/pkg",
      "file:///etc/passwd",
      "evil @ file:///tmp/evil",
      "git+https://example.com/evil.git",
      "https://example.com/evil.tar.gz",
      "-r /etc/passwd",
      "--index-url=http://evil.example",
      "evil.tar.gz",
      "evil.whl",
      "evil.zip",
      "evil.tgz",
    ];
    for (const dependency of bad) {
      const answer = await callTool(solo.client, "save_function", {
        name: "double",
        code: CODE,
        description: "Double",
        dependencies: [dependency],
        skip_tests: true,
      });
      expect(errorCode(answer), dependency).toBe("INVALID_INPUT");
    }
    expect((await solo.services.library.list({}, { limit: 10, offset: 0 })).total).toBe(0);
  });

  it("refuses function names that are not identifiers, for every tool that takes one", async () => {
    for (const name of ["../double", "/etc/passwd", "a/b", "..", "double.py"]) {
      expect(
        errorCode(await callTool(solo.client, "save_function", { name, code: CODE, description: "Double", skip_tests: true })),
        name,
      ).toBe("INVALID_INPUT");
      for (const tool of ["get_function", "get_function_history", "delete_function"]) {
        expect(errorCode(await callTool(solo.client, tool, { name })), `${tool} ${name}`).toBe("INVALID_INPUT");
      }
    }
  });

  it("accepts a plain requirement (the check is not a blanket refusal)", async () => {
    const answer = await callTool(solo.client, "save_function", {
      name: "double",
      code: CODE,
      description: "Double",
      dependencies: ["six>=1.16"],
      skip_tests: true,
    });
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  });
});
