import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeOpenAiRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

/**
 * A loopback fake of the OpenAI-compatible API (what llama.cpp server, Ollama and vLLM speak):
 * /v1/models, /v1/chat/completions, /v1/completions, /v1/embeddings. Answers are scripted per
 * call; every request is recorded.
 */
export class FakeOpenAi {
  readonly requests: FakeOpenAiRequest[] = [];
  /** Answers for the next calls, consumed in order; when empty, `fallback` answers. */
  readonly script: { status: number; body: unknown; delayMs?: number }[] = [];
  fallback: (path: string, body: Record<string, unknown> | undefined) => { status: number; body: unknown } = (path, body) => {
    if (path === "/v1/models") return { status: 200, body: { data: [{ id: "fake-model" }] } };
    if (path === "/v1/embeddings") {
      const input = (body?.input as string[]) ?? [];
      return { status: 200, body: { data: input.map((text, index) => ({ index, embedding: [text.length, 1, 0] })) } };
    }
    if (path === "/v1/chat/completions") {
      return {
        status: 200,
        body: {
          choices: [
            {
              message: { content: "hello there" },
              finish_reason: "stop",
              logprobs: { content: [{ logprob: Math.log(0.5) }, { logprob: Math.log(0.5) }] },
            },
          ],
          usage: { prompt_tokens: 12, completion_tokens: 2 },
        },
      };
    }
    return {
      status: 200,
      body: {
        choices: [{ text: " world", finish_reason: "length", logprobs: { token_logprobs: [Math.log(0.25)] } }],
        usage: { prompt_tokens: 3, completion_tokens: 1 },
      },
    };
  };
  private server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void readBody(req).then((body) => {
        const path = (req.url ?? "").split("?")[0] ?? "";
        this.requests.push({ method: req.method ?? "", path, authorization: req.headers.authorization, body });
        const answer: { status: number; body: unknown; delayMs?: number } = this.script.shift() ?? this.fallback(path, body);
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { "content-type": "application/json" });
          res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
}
