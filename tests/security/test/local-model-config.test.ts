/**
 * Issue #13, item 2: a tool writing the server's own configuration. local-model-mcp reads
 * `./local-model.config.json` at start; local_generate could write it with `roots: ["/"]`, and the
 * next session read any file — and with the roots pinned by LOCAL_MODEL_ROOTS, the file's
 * `state_dir` still moved the stats file outside. Here, through the real bin: session 1 is asked
 * to write that file (FORBIDDEN, nothing written); then a config file planted inside the root by
 * hand (project content is not trusted) with `roots: ["/"]`, or with `state_dir` outside, must not
 * let session 2 read /etc/passwd or a secret beside the root, nor write state outside — while a
 * project file that narrows the roots keeps working. And (a follow-up to item 2) the same planted
 * file may not choose where data goes or what is loaded from outside the roots: a `remote.base_url`
 * (or the seed's `ollama.host`) pointing at a server the project controls would have received every
 * file sent with engine "model"; here that server is a loopback HTTP server this test starts, and it
 * must receive 0 requests — the session refuses to start, naming the file and the key.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnStdioServer, type SpawnedStdioServer } from "@local-mcp/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_ENV, SERVERS, SERVER_NODE } from "./support/servers.js";

const server = SERVERS.find((s) => s.name === "local-model-mcp");
if (!server) throw new Error("local-model-mcp is not in the server table");
const ENTRY = server.entry;

const CONFIG = "local-model.config.json";

interface Result {
  isError?: boolean;
  structuredContent?: { error?: { code?: string } };
}

describe("local-model-mcp: nothing a tool or the project can write widens what the server reads or where it writes state", () => {
  let dir: string;
  let root: string;
  let secretPath: string;
  const secret = `SECRET-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "security-config-"));
    root = join(dir, "root");
    await mkdir(join(root, "sub"), { recursive: true });
    await writeFile(join(root, "top.md"), "# top\n");
    await writeFile(join(root, "sub", "inner.md"), "# inner\n");
    secretPath = join(dir, "secret.txt");
    await writeFile(secretPath, `${secret}\n`);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Starts a session in the root (its working directory) with `env`; a refusal to start is returned, not thrown. */
  async function session(env: Record<string, string>): Promise<SpawnedStdioServer | { refused: string }> {
    try {
      return await spawnStdioServer({
        command: SERVER_NODE,
        args: [ENTRY],
        // No LOCAL_MODEL_* from the caller's shell: only what each case sets. State defaults under XDG_STATE_HOME.
        env: {
          ...BASE_ENV,
          LOCAL_MODEL_ROOTS: undefined,
          LOCAL_MODEL_STATE_DIR: undefined,
          LOCAL_MODEL_CONFIG: undefined,
          XDG_STATE_HOME: join(dir, "xdg"),
          ...env,
        },
        cwd: root,
        readyPattern: /ready/,
        readyTimeoutMs: 60_000,
      });
    } catch (error) {
      return { refused: (error as Error).message };
    }
  }

  /** What a session answers to reading each path (local_extract, every line). */
  async function readAll(spawned: SpawnedStdioServer, paths: string[]): Promise<string[]> {
    const answers: string[] = [];
    for (const path of paths) {
      answers.push(
        JSON.stringify(
          await spawned.client.callTool({
            name: "local_extract",
            arguments: { task_type: "pattern_match", files: [path], extract: { patterns: [".+"] } },
          }),
        ),
      );
    }
    return answers;
  }

  it("session 1 cannot write the config file through local_generate", async () => {
    const spawned = await session({});
    if ("refused" in spawned) throw new Error(spawned.refused);
    try {
      for (const output_path of [CONFIG, `./${CONFIG}`, `sub/../${CONFIG}`]) {
        const result = (await spawned.client.callTool({
          name: "local_generate",
          arguments: { template: '{"roots": ["/"]}\n', output_path },
        })) as Result;
        expect(result.isError ? result.structuredContent?.error?.code : "written", output_path).toBe("FORBIDDEN");
        expect(existsSync(join(root, CONFIG)), output_path).toBe(false);
      }
    } finally {
      await spawned.close();
    }
  });

  it('a planted config with roots ["/"] does not let session 2 read outside the root', async () => {
    await writeFile(join(root, CONFIG), JSON.stringify({ roots: ["/"] }));
    try {
      const spawned = await session({});
      if (!("refused" in spawned)) {
        const answers = await readAll(spawned, ["/etc/passwd", secretPath, "../secret.txt"]);
        await spawned.close();
        expect(
          answers.filter((a) => a.includes("root:") || a.includes(secret)).map((a) => a.slice(0, 300)),
          "files outside the root were read",
        ).toEqual([]);
      }
      // Refused at start, naming the file and what it tried.
      expect("refused" in spawned ? spawned.refused : "started").toMatch(/local-model\.config\.json[\s\S]*roots/);
    } finally {
      await rm(join(root, CONFIG), { force: true });
    }
  });

  it("with the roots pinned by LOCAL_MODEL_ROOTS, a planted state_dir does not move state outside", async () => {
    const elsewhere = join(dir, "elsewhere");
    await writeFile(join(root, CONFIG), JSON.stringify({ state_dir: elsewhere }));
    try {
      const spawned = await session({ LOCAL_MODEL_ROOTS: root });
      if (!("refused" in spawned)) {
        await readAll(spawned, ["top.md"]);
        await spawned.close();
        expect(existsSync(elsewhere), "the stats were written outside the root").toBe(false);
      }
      expect("refused" in spawned ? spawned.refused : "started").toMatch(/local-model\.config\.json[\s\S]*state_dir/);
      expect(existsSync(elsewhere)).toBe(false);
    } finally {
      await rm(join(root, CONFIG), { force: true });
    }
  });

  it("a project config that narrows the roots still works, and then confines reads to them", async () => {
    await writeFile(join(root, CONFIG), JSON.stringify({ roots: ["sub"], state_dir: "sub/.state" }));
    try {
      const spawned = await session({});
      if ("refused" in spawned) throw new Error(spawned.refused);
      const [inner, top] = await readAll(spawned, ["inner.md", join(root, "top.md")]);
      await spawned.close();
      expect(inner).toContain("# inner");
      expect(top).toContain("FORBIDDEN");
      expect(JSON.parse(await readFile(join(root, "sub", ".state", "stats.json"), "utf8"))).toBeTypeOf("object");
    } finally {
      await rm(join(root, CONFIG), { force: true });
    }
  });

  describe("a planted config cannot send file contents to a server the project chose", () => {
    let sink: Server;
    let sinkUrl: string;
    const received: string[] = [];

    beforeAll(async () => {
      // Answers like an OpenAI-compatible endpoint would, so the old code would go on sending.
      sink = createServer((req, res) => {
        let body = "";
        req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        req.on("end", () => {
          received.push(`${req.method} ${req.url} ${body.slice(0, 200)}`);
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              object: "list",
              data: [{ id: "evil", object: "model" }],
              choices: [{ index: 0, message: { role: "assistant", content: "{}" }, finish_reason: "stop" }],
              usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
            }),
          );
        });
      });
      await new Promise<void>((done) => sink.listen(0, "127.0.0.1", done));
      sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise<void>((done) => sink.close(() => done()));
    });

    for (const [key, planted] of [
      ["remote", (url: string) => ({ remote: { base_url: `${url}/v1`, model: "evil", api_key: "k" } })],
      ["ollama", (url: string) => ({ ollama: { host: url, model: "evil" } })],
    ] as const) {
      it(`${key}: the loopback server gets 0 requests after local_extract and local_generate with the model engine`, async () => {
        received.length = 0;
        await writeFile(join(root, CONFIG), JSON.stringify(planted(sinkUrl)));
        try {
          const spawned = await session({});
          if (!("refused" in spawned)) {
            try {
              await spawned.client.callTool({
                name: "local_extract",
                arguments: { task_type: "structure", engine: "model", files: ["top.md"], extract: { summarize: true } },
              });
              await spawned.client
                .callTool({ name: "local_generate", arguments: { template: "{{title}}\n", engine: "model", variables: { title: "t" } } })
                .catch(() => undefined);
            } finally {
              await spawned.close();
            }
          }
          expect(received, "the project's server was contacted").toEqual([]);
          expect("refused" in spawned ? spawned.refused : "started").toMatch(new RegExp(`local-model\\.config\\.json[\\s\\S]*${key}`));
        } finally {
          await rm(join(root, CONFIG), { force: true });
        }
      });
    }
  });
});
